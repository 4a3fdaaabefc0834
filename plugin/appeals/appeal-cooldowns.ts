import type { Clock } from '../../src/ports/clock.js';

// Bounds what is remembered, whatever the number of players.
const MAX_REMEMBERED = 2_000;

/**
 * When each player may ask the service for appeal codes again with `/appeal`. Started when the
 * command asks (so a burst cannot all pass), cleared when the question failed, so a failure costs
 * nothing; codes already held are shown without asking and start nothing.
 */
export class AppealCooldowns {
  // Map order is the order players asked: the oldest come first.
  readonly #lastAt = new Map<string, number>();

  constructor(
    private readonly cooldownMs: () => number,
    private readonly clock: Clock,
  ) {}

  /** Milliseconds left before the player may ask again; 0 when they may now. */
  remainingMs(playerUuid: string): number {
    const now = this.clock.now();
    const cooldownMs = this.cooldownMs();
    for (const [player, at] of this.#lastAt) {
      if (now - at < cooldownMs) break;
      this.#lastAt.delete(player);
    }
    const lastAt = this.#lastAt.get(playerUuid.toLowerCase());
    return lastAt === undefined ? 0 : Math.max(0, cooldownMs - (now - lastAt));
  }

  started(playerUuid: string): void {
    const key = playerUuid.toLowerCase();
    this.#lastAt.delete(key);
    this.#lastAt.set(key, this.clock.now());
    if (this.#lastAt.size > MAX_REMEMBERED) this.#lastAt.delete(this.#lastAt.keys().next().value as string);
  }

  /** Undoes {@link started}: the question failed. */
  cleared(playerUuid: string): void {
    this.#lastAt.delete(playerUuid.toLowerCase());
  }
}
