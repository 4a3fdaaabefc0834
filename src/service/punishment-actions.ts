import type { ServiceContext } from './context.js';
import type { NewPunishment } from './store/punishment-rows.js';

/**
 * Stores a new punishment with its pending notification (id = punishment id) and tells the
 * stream. Returns false when the id already existed, which changes nothing.
 */
export function createPunishment(context: ServiceContext, record: NewPunishment, options = { notify: true }): boolean {
  const { db, stores, clock } = context;
  const inserted = db.transaction(() => {
    if (!stores.punishments.insert(record)) return false;
    if (options.notify) stores.notifications.create(record.networkId, record.id, record.targetUuid, clock.now());
    return true;
  })();
  if (inserted) publish(context, record.networkId, record.id);
  return inserted;
}

/** Changes a punishment's status; publishes a frame only when it actually changed. */
export function changePunishmentStatus(
  context: ServiceContext,
  networkId: number,
  id: string,
  status: string,
): boolean {
  const changed = context.stores.punishments.setStatus(networkId, id, status, context.clock.now());
  if (changed) publish(context, networkId, id);
  return changed;
}

export interface Pardon {
  networkId: number;
  id: string;
  issuerName: string;
  reason: string;
  serverId: number;
}

/**
 * The pardon extension: the punishment becomes `pardoned` and who, when and why is recorded, in
 * one transaction; published when it changed. False when it was already pardoned.
 */
export function pardonPunishment(context: ServiceContext, pardon: Pardon): boolean {
  const { db, stores, clock } = context;
  const nowMs = clock.now();
  const changed = db.transaction(() => {
    if (!stores.punishments.setStatus(pardon.networkId, pardon.id, 'pardoned', nowMs)) return false;
    stores.pardons.record({
      networkId: pardon.networkId,
      punishmentId: pardon.id,
      issuerName: pardon.issuerName,
      reason: pardon.reason,
      serverId: pardon.serverId,
      pardonedAt: nowMs,
    });
    return true;
  })();
  if (changed) publish(context, pardon.networkId, pardon.id);
  return changed;
}

function publish(context: ServiceContext, networkId: number, id: string): void {
  // Seeding and tests without a stream client skip the read-back.
  if (context.feed.listenerCount('punishment:changed') === 0) return;
  const row = context.stores.punishments.find(networkId, id);
  const punishment = row && context.render.one(row);
  if (punishment) context.feed.publish(networkId, punishment);
}
