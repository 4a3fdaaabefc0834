/**
 * Until when each key (a player's UUID, an address) is punished, in memory: join and chat decisions
 * read only this. A slot number per key and the times in a Float64Array keep 100,000 entries to a
 * key and a number each (no object per entry).
 */
export class RunningUntil<K> {
  readonly #slots = new Map<K, number>();
  #untilMs = new Float64Array(1024);
  readonly #freeSlots: number[] = [];

  get size(): number {
    return this.#slots.size;
  }

  isRunning(key: K, now: number): boolean {
    const slot = this.#slots.get(key);
    return slot !== undefined && now < this.#untilMs[slot]!;
  }

  untilMs(key: K): number | undefined {
    const slot = this.#slots.get(key);
    return slot === undefined ? undefined : this.#untilMs[slot];
  }

  set(key: K, untilMs: number): void {
    let slot = this.#slots.get(key);
    if (slot === undefined) {
      slot = this.#freeSlots.pop() ?? this.#slots.size;
      this.#slots.set(key, slot);
      if (slot >= this.#untilMs.length) this.#grow();
    }
    this.#untilMs[slot] = untilMs;
  }

  /** Keys whose entry runs at `now`. */
  *running(now: number): IterableIterator<K> {
    for (const [key, slot] of this.#slots) if (now < this.#untilMs[slot]!) yield key;
  }

  delete(key: K): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    this.#freeSlots.push(slot);
  }

  clear(): void {
    this.#slots.clear();
    this.#freeSlots.length = 0;
  }

  #grow(): void {
    const larger = new Float64Array(this.#untilMs.length * 2);
    larger.set(this.#untilMs);
    this.#untilMs = larger;
  }
}
