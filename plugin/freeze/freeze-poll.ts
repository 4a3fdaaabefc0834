import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Freezes } from './freezes.js';

export interface FreezePollDeps {
  client: Pick<ModerationApi, 'frozenPlayers' | 'gate' | 'extensions'>;
  freezes: Pick<Freezes, 'changeMark' | 'applyNetworkList'>;
  /** Whether anyone is online here. */
  anyoneOnline(): boolean;
  /** `freeze.pollIntervalMs`, read at each tick; 0: only when a player joins. */
  pollIntervalMs(): number;
  clock: Clock;
  logger: Logger;
}

/**
 * Keeps this server's freezes in step with the network's: while anyone is online, asks the
 * service for its frozen players every `freeze.pollIntervalMs`, and at once when a player joins
 * (a player frozen on another server is held from their first moment here). Never asks while the
 * gate is closed or the service lacks the route; one question at a time.
 */
export class FreezePoll {
  #lastPollAt = Number.NEGATIVE_INFINITY;
  #wanted = false;
  #running: Promise<void> | undefined;

  constructor(private readonly deps: FreezePollDeps) {}

  /** Asks at the next tick whatever the interval (a player joined). */
  soon(): void {
    this.#wanted = true;
  }

  tick(): Promise<void> {
    this.#running ??= this.#poll().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #poll(): Promise<void> {
    const intervalMs = this.deps.pollIntervalMs();
    const now = this.deps.clock.now();
    const due = this.#wanted || (intervalMs > 0 && now - this.#lastPollAt >= intervalMs);
    if (!due || !this.deps.anyoneOnline()) return;
    const { client } = this.deps;
    if (client.extensions.isMissing('frozenPlayers', now) || client.gate.closure(now)) return;
    this.#wanted = false;
    this.#lastPollAt = now;
    const mark = this.deps.freezes.changeMark();
    try {
      const { players } = await client.frozenPlayers();
      this.deps.freezes.applyNetworkList(players, mark);
    } catch (error) {
      this.deps.logger.debug('the frozen players could not be read', { error: String(error) });
    }
  }
}
