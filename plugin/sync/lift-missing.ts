import type { Player } from '../../src/runtime/plugin-api.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { renderFor } from '../enforcement/punishment-text.js';

/**
 * The status a cached punishment gets when the stream's snapshot shows it is no longer active
 * (pardoned or expired at the service while this server was not listening). Any later `recent`
 * or pushed state of the same id replaces it.
 */
export const LIFTED_STATUS = 'inactive';

/**
 * A stream `snapshot` is every active punishment of the network: cached punishments still
 * enforced here but absent from it are lifted, in one transaction, then dropped from the index.
 * Rows stored at or after `storedBefore` (local ms, when the stream connection was opened) are
 * left alone: they may be newer than the snapshot, and the frames that follow it settle them.
 *
 * @returns how many punishments were lifted
 */
export function liftMissingFromSnapshot(
  context: EnforcementContext,
  activeIds: ReadonlySet<string>,
  storedBefore: number,
): number {
  const { cache, clock } = context;
  const policy = cache.policy;
  const lifted: CachedPunishment[] = [];
  for (const punishment of cache.store.iterateStoredBefore(storedBefore)) {
    if (activeIds.has(punishment.id) || !policy.isEnforced(punishment.status)) continue;
    lifted.push({ ...punishment, status: LIFTED_STATUS });
  }
  if (lifted.length === 0) return 0;

  const now = clock.now();
  context.db.transaction(() => {
    for (const punishment of lifted) cache.save(punishment, now);
  })();
  for (const punishment of lifted) {
    cache.reindex(punishment);
    if (policy.actionOf(punishment.typeOrdinal) === 'mute') tellMuteLifted(context, punishment, now);
  }
  return lifted.length;
}

function tellMuteLifted(context: EnforcementContext, punishment: CachedPunishment, now: number): void {
  const target: Player | undefined = context.players.byUuid(punishment.targetUuid);
  if (!target) return;
  try {
    target.sendMessage(renderFor(context.messages(), 'notice.mute-lifted', punishment, now, context.appealUrl()));
  } catch (error) {
    context.logger.error('could not tell a player their mute was lifted', {
      punishmentId: punishment.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
