import { isApiError } from '../../src/api/errors.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { KnownPlayer } from './known-player.js';

/** A lookup holds a staff command back: it gets less time than an ordinary call. */
const LOOKUP_TIMEOUT_MS = 2000;

/**
 * The player the moderation service knows by a name, where it offers the lookup (an extension of
 * the reference service). Unreachable, refused or not offered: undefined, and the next way of
 * resolving the name is tried. The client remembers a 404 (`extensions`); it is not asked again
 * until the reprobe delay has passed.
 */
export class ServiceLookup {
  constructor(
    private readonly client: Pick<ModerationApi, 'lookupPlayer' | 'extensions'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async find(name: string): Promise<KnownPlayer | undefined> {
    if (this.client.extensions.isMissing('lookupPlayer', this.clock.now())) return undefined;
    try {
      const { player } = await this.client.lookupPlayer({ name }, { timeoutMs: LOOKUP_TIMEOUT_MS });
      return player ? { uuid: player.uuid.toLowerCase(), name: player.name } : undefined;
    } catch (error) {
      this.logger.debug('player lookup at the service failed', {
        error: isApiError(error) ? error.code : String(error),
      });
      return undefined;
    }
  }
}
