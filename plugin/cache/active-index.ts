/**
 * Until when each player is banned and muted, in memory: join and chat decisions read only this.
 * It answers "is anything running?"; which punishment it is comes from SQLite, and only for the
 * few players who are punished. A slot number per UUID and the times in a Float64Array keep
 * 100,000 entries to a string and a number each (no object per entry).
 */
class RunningUntil {
  readonly #slots = new Map<string, number>();
  #untilMs = new Float64Array(1024);
  readonly #freeSlots: number[] = [];

  get size(): number {
    return this.#slots.size;
  }

  isRunning(uuid: string, now: number): boolean {
    const slot = this.#slots.get(uuid);
    return slot !== undefined && now < this.#untilMs[slot]!;
  }

  untilMs(uuid: string): number | undefined {
    const slot = this.#slots.get(uuid);
    return slot === undefined ? undefined : this.#untilMs[slot];
  }

  set(uuid: string, untilMs: number): void {
    let slot = this.#slots.get(uuid);
    if (slot === undefined) {
      slot = this.#freeSlots.pop() ?? this.#slots.size;
      this.#slots.set(uuid, slot);
      if (slot >= this.#untilMs.length) this.#grow();
    }
    this.#untilMs[slot] = untilMs;
  }

  /** Players whose entry runs at `now`. */
  *running(now: number): IterableIterator<string> {
    for (const [uuid, slot] of this.#slots) if (now < this.#untilMs[slot]!) yield uuid;
  }

  delete(uuid: string): void {
    const slot = this.#slots.get(uuid);
    if (slot === undefined) return;
    this.#slots.delete(uuid);
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

export type EnforcedKind = 'ban' | 'mute';

/** Enforced bans and mutes by target UUID (lower case): the latest end of each kind. */
export class ActiveIndex {
  readonly #bans = new RunningUntil();
  readonly #mutes = new RunningUntil();

  /** Players with a ban plus players with a mute. */
  get size(): number {
    return this.#bans.size + this.#mutes.size;
  }

  isBanned(uuid: string, now: number): boolean {
    return this.#bans.isRunning(uuid, now);
  }

  isMuted(uuid: string, now: number): boolean {
    return this.#mutes.isRunning(uuid, now);
  }

  /** Players with a running ban (or mute) at `now`. */
  running(kind: EnforcedKind, now: number): IterableIterator<string> {
    return this.#table(kind).running(now);
  }

  /** Keeps the later of the stored end and `untilMs` (a player may have several of a kind). */
  extend(kind: EnforcedKind, uuid: string, untilMs: number): void {
    const table = this.#table(kind);
    const current = table.untilMs(uuid);
    if (current === undefined || untilMs > current) table.set(uuid, untilMs);
  }

  /** Replaces what is known of the player's bans or mutes; undefined: none is enforced. */
  replace(kind: EnforcedKind, uuid: string, untilMs: number | undefined): void {
    if (untilMs === undefined) this.#table(kind).delete(uuid);
    else this.#table(kind).set(uuid, untilMs);
  }

  clear(): void {
    this.#bans.clear();
    this.#mutes.clear();
  }

  #table(kind: EnforcedKind): RunningUntil {
    return kind === 'ban' ? this.#bans : this.#mutes;
  }
}
