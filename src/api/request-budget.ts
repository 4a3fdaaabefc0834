/**
 * A requests-per-minute budget as one number (GCRA: the theoretical arrival time of the next
 * request), letting `burst` requests go at once (a second's worth unless told), then one every
 * `60 s / perMinute`. Without a rate every request is free.
 */
export class RequestBudget {
  #nextSlotAt = Number.NEGATIVE_INFINITY;
  readonly #slotMs: number;
  readonly #burstMs: number;

  constructor(perMinute: number | undefined, burst = perMinute === undefined ? 0 : Math.ceil(perMinute / 60)) {
    this.#slotMs = perMinute === undefined ? 0 : 60_000 / perMinute;
    this.#burstMs = this.#slotMs * Math.max(0, burst - 1);
  }

  /** How long until a request may start without waiting (0: now). */
  waitMs(now: number): number {
    if (this.#slotMs === 0) return 0;
    return Math.ceil(Math.max(0, this.#nextSlotAt - now - this.#burstMs));
  }

  /** Spends one request; returns how long its sender must wait (0 when it was free now). */
  spend(now: number): number {
    if (this.#slotMs === 0) return 0;
    const slotAt = Math.max(this.#nextSlotAt, now);
    this.#nextSlotAt = slotAt + this.#slotMs;
    return Math.ceil(Math.max(0, slotAt - now - this.#burstMs));
  }
}
