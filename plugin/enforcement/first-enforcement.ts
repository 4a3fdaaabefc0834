import { queueNoticeAck, queuePunishmentAck } from '../acks/acknowledgements.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import type { KindContext } from '../kinds/kind.js';

/**
 * Records that a ban or mute has just reached its target (refused at login, or in force on
 * join): starts its countdown if it has not started, and queues the acknowledgement and the
 * notice acknowledgement. Does nothing for a punishment already acknowledged and notified.
 * Returns the updated punishment.
 */
export function recordEnforced(context: KindContext, punishment: CachedPunishment): CachedPunishment {
  if (punishment.acknowledged && punishment.notified && punishment.startedAt !== null) return punishment;
  const now = context.clock.now();
  const next: CachedPunishment = { ...punishment, startedAt: punishment.startedAt ?? now };
  const ack = !punishment.acknowledged;
  const notify = !punishment.notified;
  next.acknowledged = true;
  next.notified = true;
  context.db.transaction(() => {
    context.cache.save(next, now);
    if (ack) queuePunishmentAck(context.outbox, next, { executedAt: now, success: true });
    if (notify) queueNoticeAck(context.outbox, next, now);
  })();
  context.cache.reindex(next);
  return next;
}
