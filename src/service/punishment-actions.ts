import type { ServiceContext } from './context.js';
import { guardedPromise } from './guard.js';
import type { NewPunishment } from './store/punishment-rows.js';
import { punishmentEvent, statusEventName } from './webhooks/events.js';

const ACTIVE_STATUS = 'active';
const PARDONED_STATUS = 'pardoned';

/**
 * Stores a new punishment with its pending notification (id = punishment id) and tells the
 * stream. Returns false when the id already existed, which changes nothing.
 */
export function createPunishment(context: ServiceContext, record: NewPunishment, options = { notify: true }): boolean {
  const { db, stores, clock } = context;
  const inserted = db.transaction(() => {
    if (!stores.punishments.insert(record)) return false;
    const nowMs = clock.now();
    if (options.notify) stores.notifications.create(record.networkId, record.id, record.targetUuid, nowMs);
    const row = {
      id: record.id,
      target_name: record.targetName,
      issuer_name: record.issuerName,
      reason: record.reason,
      type_ordinal: record.typeOrdinal,
      duration: record.duration,
      created_at: record.createdAt,
      started_at: record.startedAt ?? null,
    };
    context.webhooks.record(record.networkId, [punishmentEvent('punishment.created', row, context.rules, nowMs)]);
    return true;
  })();
  if (inserted) publish(context, record.networkId, record.id);
  return inserted;
}

/**
 * Changes a punishment's status; publishes a frame only when it actually changed. A parent ending
 * (any status but active) takes its active Linked Bans with it.
 */
export function changePunishmentStatus(
  context: ServiceContext,
  networkId: number,
  id: string,
  status: string,
): boolean {
  const { db, stores, clock } = context;
  const nowMs = clock.now();
  const changedIds = db.transaction(() => {
    if (!stores.punishments.setStatus(networkId, id, status, nowMs)) return [];
    if (status === ACTIVE_STATUS) return [id];
    const linked = stores.evasion.activeLinkedBans(networkId, id);
    for (const linkedId of linked) stores.punishments.setStatus(networkId, linkedId, status, nowMs);
    const changed = [id, ...linked];
    recordStatusEvents(context, networkId, changed, status, nowMs);
    return changed;
  })();
  for (const changedId of changedIds) publish(context, networkId, changedId);
  return changedIds.length > 0;
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
 * one transaction with the pardon of its active Linked Bans; each is published. False when it was
 * already pardoned.
 */
export function pardonPunishment(context: ServiceContext, pardon: Pardon): boolean {
  const { db, stores, clock } = context;
  const nowMs = clock.now();
  const record = (punishmentId: string, reason: string) => {
    if (!stores.punishments.setStatus(pardon.networkId, punishmentId, PARDONED_STATUS, nowMs)) return false;
    const { networkId, issuerName, serverId } = pardon;
    stores.pardons.record({ networkId, punishmentId, issuerName, reason, serverId, pardonedAt: nowMs });
    return true;
  };
  const changedIds = db.transaction(() => {
    if (!record(pardon.id, pardon.reason)) return [];
    const linked = stores.evasion.activeLinkedBans(pardon.networkId, pardon.id);
    for (const linkedId of linked) record(linkedId, `pardoned with ${pardon.id}`);
    const changed = [pardon.id, ...linked];
    recordStatusEvents(context, pardon.networkId, changed, PARDONED_STATUS, nowMs, pardon.issuerName);
    return changed;
  })();
  for (const changedId of changedIds) publish(context, pardon.networkId, changedId);
  return changedIds.length > 0;
}

/** Queues the webhook event of each punishment's new status, in the caller's transaction. */
function recordStatusEvents(
  context: ServiceContext,
  networkId: number,
  ids: readonly string[],
  status: string,
  nowMs: number,
  actor?: string,
): void {
  const name = statusEventName(status);
  if (!name) return;
  const events = ids.flatMap((id) => {
    const row = context.stores.punishments.find(networkId, id);
    return row ? [punishmentEvent(name, row, context.rules, nowMs, actor)] : [];
  });
  context.webhooks.record(networkId, events);
}

function publish(context: ServiceContext, networkId: number, id: string): void {
  void guardedPromise(context.logger, 'stream publish', { networkId, id }, context.changes.changed(networkId, id));
}
