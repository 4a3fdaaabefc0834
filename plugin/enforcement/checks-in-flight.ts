/** How one login check ended; never a rejection. */
export type CheckOutcome = 'answered' | 'unsupported' | 'unavailable';

/**
 * The login check under way for each player (by lower-case UUID): a player who joins again
 * while their check is still out waits for that one instead of sending another.
 */
export class ChecksInFlight {
  readonly #checks = new Map<string, Promise<CheckOutcome>>();

  /** The check of `uuid` under way, or the one `start` begins (forgotten once it ends). */
  join(uuid: string, start: () => Promise<CheckOutcome>): Promise<CheckOutcome> {
    const running = this.#checks.get(uuid);
    if (running) return running;
    const check = start().finally(() => this.#checks.delete(uuid));
    this.#checks.set(uuid, check);
    return check;
  }

  get size(): number {
    return this.#checks.size;
  }
}
