import { isApiError, isAuthFailure } from '../../src/api/errors.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Punishment } from '../../src/contract/schemas.js';
import { errorMessage } from '../../src/errors/error-message.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { ApplyOutcome } from './apply-punishment.js';
import type { SyncStatus } from './sync-status.js';

export interface PollerOptions {
  client: Pick<ModerationApi, 'recentPunishments'>;
  /** Look-back window of each poll. */
  recentHours: () => number;
  apply: (punishment: Punishment) => ApplyOutcome;
  status: SyncStatus;
  clock: Clock;
  logger: Logger;
  /** Sees every answered page (newest first) before it is applied. */
  onAnswered?: (punishments: readonly Punishment[]) => void;
}

export interface PollResult {
  /** Punishments stored or changed. */
  applied: number;
  /** False when the call failed or the answer was malformed (then nothing was applied). */
  ok: boolean;
}

/**
 * One poll of `recent`: new and changed punishments are applied oldest first, so a later
 * change of the same player wins. What is new is decided by comparing with the cache (ids,
 * statuses and the service's `started`), never by the local clock.
 */
export async function pollRecent(options: PollerOptions): Promise<PollResult> {
  const { status, logger } = options;
  let punishments: Punishment[];
  try {
    ({ punishments } = await options.client.recentPunishments({ hours: options.recentHours() }));
  } catch (error) {
    const kind = isApiError(error) ? error.kind : 'unexpected';
    status.serviceReachable = !isUnreachable(error);
    const fields = {
      kind,
      code: isApiError(error) ? error.code : undefined,
      error: errorMessage(error),
    };
    // Held by the gate (a 429 or a rejected key): the turn is skipped; the gate's closing was said once.
    // A 401 itself is said once, loudly, by the plugin's key-rejection log.
    if ((isApiError(error) && error.gated !== undefined) || isAuthFailure(error)) logger.debug('poll skipped', fields);
    else
      logger.warn(
        kind === 'invalid_response' ? 'recent answered a malformed response: nothing applied' : 'poll failed',
        fields,
      );
    return { applied: 0, ok: false };
  }
  status.serviceReachable = true;
  options.onAnswered?.(punishments);
  let applied = 0;
  for (let at = punishments.length - 1; at >= 0; at -= 1) {
    const punishment = punishments[at]!;
    try {
      if (options.apply(punishment) !== 'unchanged') applied += 1;
    } catch (error) {
      logger.error('could not apply a punishment', {
        punishmentId: punishment.id,
        error: errorMessage(error),
      });
    }
  }
  status.lastSyncAt = options.clock.now();
  return { applied, ok: true };
}

function isUnreachable(error: unknown): boolean {
  if (!isApiError(error)) return true;
  return error.kind === 'network' || error.kind === 'timeout' || (error.kind === 'http' && (error.status ?? 0) >= 500);
}
