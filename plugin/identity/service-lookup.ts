import { isApiError } from '../../src/api/errors.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { KnownPlayer } from '../commands/deps.js';

/** How long a 404 (the service has no player lookup) is remembered before asking again. */
export const LOOKUP_REPROBE_MS = 600_000;
/** A lookup holds a staff command back: it gets less time than an ordinary call. */
const LOOKUP_TIMEOUT_MS = 2000;

/**
 * The player the moderation service knows by a name, where it offers the lookup (an extension of
 * the reference service). Unreachable, refused or not offered: undefined, and the next way of
 * resolving the name is tried. A 404 is remembered for {@link LOOKUP_REPROBE_MS}.
 */
export class ServiceLookup {
  #notOfferedUntil: number | undefined;

  constructor(
    private readonly client: Pick<ModerationApi, 'lookupPlayer'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async find(name: string): Promise<KnownPlayer | undefined> {
    const now = this.clock.now();
    if (this.#notOfferedUntil !== undefined && now < this.#notOfferedUntil) return undefined;
    try {
      const { player } = await this.client.lookupPlayer({ name }, { timeoutMs: LOOKUP_TIMEOUT_MS });
      this.#notOfferedUntil = undefined;
      return player ? { uuid: player.uuid.toLowerCase(), name: player.name } : undefined;
    } catch (error) {
      if (isApiError(error) && error.kind === 'http' && error.status === 404) {
        this.#notOfferedUntil = now + LOOKUP_REPROBE_MS;
      } else {
        this.logger.debug('player lookup at the service failed', {
          error: isApiError(error) ? error.code : String(error),
        });
      }
      return undefined;
    }
  }
}
