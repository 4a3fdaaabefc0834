import type { CachedPunishment } from '../cache/cached-punishment.js';
import { isLocalId } from '../cache/local-creations.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { type Kind, WARNING_STATUS } from '../kinds/index.js';

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
 * So are punishments issued here whose creation still waits in the outbox (a local id): the
 * service has never seen them, so no snapshot can list them.
 *
 * @returns how many punishments were lifted
 */
export function liftMissingFromSnapshot(
  context: EnforcementContext,
  activeIds: ReadonlySet<string>,
  storedBefore: number,
): number {
  const { cache, clock } = context;
  const policy = context.policy();
  const lifted: Array<{ punishment: CachedPunishment; kind: Kind }> = [];
  for (const punishment of cache.store.iterateStoredBefore(storedBefore)) {
    // Warnings are never active, so never in a snapshot: there is nothing to lift.
    if (
      activeIds.has(punishment.id) ||
      isLocalId(punishment.id) ||
      !policy.isEnforced(punishment.status) ||
      punishment.status === WARNING_STATUS
    )
      continue;
    lifted.push({ punishment: { ...punishment, status: LIFTED_STATUS }, kind: policy.kindOf(punishment) });
  }
  if (lifted.length === 0) return 0;

  const now = clock.now();
  context.db.transaction(() => {
    for (const { punishment } of lifted) cache.save(punishment, now);
  })();
  for (const { punishment, kind } of lifted) {
    cache.reindex(punishment);
    kind.lifted(context, punishment, now);
  }
  return lifted.length;
}
