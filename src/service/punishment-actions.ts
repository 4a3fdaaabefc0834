import type { ServiceContext, ServiceStores } from './context.js';
import type { NewPunishment } from './store/punishment-rows.js';
import { punishmentEvent, statusEventName } from './webhooks/events.js';

const ACTIVE_STATUS = 'active';
const PARDONED_STATUS = 'pardoned';

/**
 * Stores a new punishment with its pending notification (id = punishment id) and tells the
 * stream. Returns false when the id already existed, which changes nothing.
 */
export async function createPunishment(
  context: ServiceContext,
  record: NewPunishment,
  options = { notify: true },
): Promise<boolean> {
  const inserted = await context.storage.transaction((stores) => insertPunishment(context, stores, record, options));
  if (inserted) await publishPunishment(context, record.networkId, record.id);
  return inserted;
}

/**
 * {@link createPunishment} inside the caller's transaction (`stores` are its stores), without
 * telling the stream: the caller publishes after the commit, or nobody listens yet (a seed).
 */
export async function insertPunishment(
  context: ServiceContext,
  stores: ServiceStores,
  record: NewPunishment,
  options = { notify: true },
): Promise<boolean> {
  if (!(await stores.punishments.insert(record))) return false;
  const nowMs = context.clock.now();
  if (options.notify) await stores.notifications.create(record.networkId, record.id, record.targetUuid, nowMs);
  // The tickets it answers list it, and it names them: an id the network has no ticket for is kept on it only.
  for (const ticketId of new Set(record.attachedTicketIds ?? [])) {
    await stores.tickets.linkPunishment(record.networkId, ticketId, record.id, nowMs);
  }
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
  await context.webhooks.record(
    record.networkId,
    [punishmentEvent('punishment.created', row, context.rules, nowMs)],
    stores,
  );
  return true;
}

/**
 * Changes a punishment's status; publishes a frame only when it actually changed. A parent ending
 * (any status but active) takes its active Linked Bans with it.
 */
export async function changePunishmentStatus(
  context: ServiceContext,
  networkId: number,
  id: string,
  status: string,
): Promise<boolean> {
  const nowMs = context.clock.now();
  const changedIds = await context.storage.transaction(async (stores) => {
    if (!(await stores.punishments.setStatus(networkId, id, status, nowMs))) return [];
    if (status === ACTIVE_STATUS) return [id];
    const linked = await stores.evasion.activeLinkedBans(networkId, id);
    for (const linkedId of linked) await stores.punishments.setStatus(networkId, linkedId, status, nowMs);
    const changed = [id, ...linked];
    await recordStatusEvents(context, stores, networkId, changed, status, nowMs);
    return changed;
  });
  for (const changedId of changedIds) await publishPunishment(context, networkId, changedId);
  return changedIds.length > 0;
}

export interface Pardon {
  networkId: number;
  id: string;
  issuerName: string;
  reason: string;
  /** The server whose key asked for it; null for a pardon from the panel. */
  serverId: number | null;
}

/**
 * The pardon extension: the punishment becomes `pardoned` and who, when and why is recorded, in
 * one transaction with the pardon of its active Linked Bans; each is published. False when it was
 * already pardoned.
 */
export async function pardonPunishment(context: ServiceContext, pardon: Pardon): Promise<boolean> {
  const changedIds = await context.storage.transaction((stores) => pardonWithin(context, stores, pardon));
  await publishChanges(context, pardon.networkId, changedIds);
  return changedIds.length > 0;
}

/**
 * {@link pardonPunishment} inside the caller's transaction, without telling the stream: returns
 * the ids it changed (none when it was already pardoned), for {@link publishChanges} after the commit.
 */
export async function pardonWithin(context: ServiceContext, stores: ServiceStores, pardon: Pardon): Promise<string[]> {
  const nowMs = context.clock.now();
  const record = async (punishmentId: string, reason: string) => {
    if (!(await stores.punishments.setStatus(pardon.networkId, punishmentId, PARDONED_STATUS, nowMs))) return false;
    const { networkId, issuerName, serverId } = pardon;
    await stores.pardons.record({ networkId, punishmentId, issuerName, reason, serverId, pardonedAt: nowMs });
    return true;
  };
  if (!(await record(pardon.id, pardon.reason))) return [];
  const linked = await stores.evasion.activeLinkedBans(pardon.networkId, pardon.id);
  for (const linkedId of linked) await record(linkedId, `pardoned with ${pardon.id}`);
  const changed = [pardon.id, ...linked];
  await recordStatusEvents(context, stores, pardon.networkId, changed, PARDONED_STATUS, nowMs, pardon.issuerName);
  return changed;
}

/** Tells the stream of every instance about each changed punishment; after the commit that changed them. */
export async function publishChanges(
  context: ServiceContext,
  networkId: number,
  ids: readonly string[],
): Promise<void> {
  for (const id of ids) await publishPunishment(context, networkId, id);
}

/** Queues the webhook event of each punishment's new status, in the caller's transaction. */
async function recordStatusEvents(
  context: ServiceContext,
  stores: ServiceStores,
  networkId: number,
  ids: readonly string[],
  status: string,
  nowMs: number,
  actor?: string,
): Promise<void> {
  const name = statusEventName(status);
  if (!name) return;
  const events = [];
  for (const id of ids) {
    const row = await stores.punishments.find(networkId, id);
    if (row) events.push(punishmentEvent(name, row, context.rules, nowMs, actor));
  }
  await context.webhooks.record(networkId, events, stores);
}

/**
 * Tells the stream of every instance about the punishment's current state; after the commit that
 * changed it. A failure (the database gone right after the commit) is logged, not thrown: the
 * change is committed, and connections read it from the change log with the next change, or (on
 * PostgreSQL) when the instances' change listeners catch up.
 */
export async function publishPunishment(context: ServiceContext, networkId: number, id: string): Promise<void> {
  try {
    await context.changes.changed(networkId, id);
  } catch (error) {
    context.logger.warn('could not tell the stream of a committed change', {
      networkId,
      id,
      problem: error instanceof Error ? error.message : String(error),
    });
  }
}
