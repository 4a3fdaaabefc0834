import { isRateLimited } from '../../src/api/errors.js';
import type { Clock } from '../../src/ports/clock.js';

export interface PlayerCallSettings {
  /** After a player's call, how long before their next one. */
  callCooldownMs: number;
  /** How long an answer is reused for the same question. */
  callCacheMs: number;
}

/** What became of a call a player triggered. */
export type PlayerCallOutcome<T> =
  | { kind: 'answer'; value: T }
  /** This player asked too recently: try again in `retryInMs`. */
  | { kind: 'cooldown'; retryInMs: number }
  /** Players together have used their share of the budget (or the service asked to wait). */
  | { kind: 'busy'; retryInMs: number };

// Bounds on what is remembered, whatever the number of players.
const MAX_REMEMBERED = 2_000;

/**
 * Calls to the service that any player can trigger (ticket reads, lookups): a player's answers
 * are reused for `callCacheMs`, and a player who asks the service again within `callCooldownMs`
 * of their last call is told to slow down without anything being sent. The calls themselves go
 * through the gate's player lane (the caller passes `lane: 'player'`), whose refusal is `busy`.
 */
export class PlayerCalls {
  readonly #lastCallAt = new Map<string, number>();
  readonly #answers = new Map<string, { value: unknown; at: number }>();

  constructor(
    private readonly settings: () => PlayerCallSettings,
    private readonly clock: Clock,
  ) {}

  /** Answers `question` for `playerUuid` from the cache, or through `call` when the player may ask now. */
  async run<T>(playerUuid: string, question: string, call: () => Promise<T>): Promise<PlayerCallOutcome<T>> {
    const { callCooldownMs, callCacheMs } = this.settings();
    const now = this.clock.now();
    this.#forgetOld(now, callCooldownMs, callCacheMs);
    const player = playerUuid.toLowerCase();
    const cacheKey = `${player} ${question}`;
    const cached = this.#answers.get(cacheKey);
    if (cached) return { kind: 'answer', value: cached.value as T };
    const lastAt = this.#lastCallAt.get(player);
    if (lastAt !== undefined && now - lastAt < callCooldownMs) {
      return { kind: 'cooldown', retryInMs: callCooldownMs - (now - lastAt) };
    }
    this.#remember(this.#lastCallAt, player, now);
    let value: T;
    try {
      value = await call();
    } catch (error) {
      if (isRateLimited(error)) return { kind: 'busy', retryInMs: error.retryAfterMs ?? callCooldownMs };
      throw error;
    }
    if (callCacheMs > 0) this.#remember(this.#answers, cacheKey, { value, at: this.clock.now() });
    return { kind: 'answer', value };
  }

  #forgetOld(now: number, cooldownMs: number, cacheMs: number): void {
    // Maps keep insertion order, and entries are re-inserted when renewed: the oldest come first.
    for (const [player, at] of this.#lastCallAt) {
      if (now - at < cooldownMs) break;
      this.#lastCallAt.delete(player);
    }
    for (const [key, answer] of this.#answers) {
      if (now - answer.at < cacheMs) break;
      this.#answers.delete(key);
    }
  }

  #remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > MAX_REMEMBERED) map.delete(map.keys().next().value as string);
  }
}
