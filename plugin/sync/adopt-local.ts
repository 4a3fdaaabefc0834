import { queueNoticeAck, queuePunishmentAck } from '../acks/acknowledgements.js';
import { type CachedPunishment, evasionFieldsOf } from '../cache/cached-punishment.js';
import { isLocalId } from '../cache/local-creations.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { queuePardon } from './queue-pardon.js';

/**
 * The locally applied copy (local id) of a punishment whose queued creation this is: same
 * target, type, issuer, reason and duration. The oldest one first when staff issued the same twice.
 */
export function findLocalTwin(context: EnforcementContext, incoming: CachedPunishment): CachedPunishment | undefined {
  return context.cache.store
    .forTarget(incoming.targetUuid)
    .find(
      (row) =>
        isLocalId(row.id) &&
        row.typeOrdinal === incoming.typeOrdinal &&
        row.issuerName === incoming.issuerName &&
        row.reason === incoming.reason &&
        row.durationMs === incoming.durationMs,
    );
}

/**
 * The service's copy of a punishment applied here under a local id takes its place: what was
 * done locally (started, shown, lifted) is kept, and the acknowledgements (and the pardon, when
 * staff lifted it meanwhile) that waited for the service's id are queued, in one transaction.
 * The local state wins over the copy's status unless staff lifted it here: nothing issued here is
 * forgotten because the copy arrived late. Nothing is shown again.
 */
export function adoptLocal(context: EnforcementContext, local: CachedPunishment, incoming: CachedPunishment): void {
  const now = context.clock.now();
  const adopted = context.db.transaction(() => {
    const pardon = context.cache.localPardons.take(local.id);
    const next: CachedPunishment = {
      ...evasionFieldsOf(local),
      ...incoming,
      status: pardon ? local.status : incoming.status,
      startedAt: local.startedAt ?? incoming.startedAt,
      acknowledged: local.acknowledged,
      notified: local.notified,
    };
    context.cache.store.delete(local.id);
    context.cache.save(next, now);
    if (next.acknowledged) {
      queuePunishmentAck(context.outbox, next, { executedAt: next.startedAt ?? now, success: true });
    }
    if (next.notified) queueNoticeAck(context.outbox, next, now);
    if (pardon) queuePardon(context.outbox, next, pardon);
    return next;
  })();
  context.cache.reindex(adopted);
}
