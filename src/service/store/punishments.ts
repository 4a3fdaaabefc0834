import { type Selectable, sql } from 'kysely';

import { prepare, type SqlContext } from '../db/prepared.js';
import type { PunishmentsTable } from '../db/tables.js';
import type { PastPunishment } from '../rules/preview.js';
import { checkDateMs } from './dates.js';
import { DAY_MS } from './ports/dashboard.js';
import { type NewPunishment, type PunishmentRow, type RenderableRow, toInsertParams } from './punishment-rows.js';

/** The columns of a punishment row (PostgreSQL's `row_id` is not one). */
export const PUNISHMENT_COLUMNS = [
  'network_id',
  'id',
  'target_uuid',
  'target_name',
  'issuer_name',
  'issuer_id',
  'type_ordinal',
  'reason',
  'duration',
  'severity',
  'status',
  'data',
  'notes',
  'attached_ticket_ids',
  'created_at',
  'started_at',
  'updated_at',
  'ip_ban_key',
  'expiry_announced_at',
] as const satisfies ReadonlyArray<keyof Selectable<PunishmentsTable>>;

/**
 * The columns a punishment is rendered from: the login check reads only these, a third less for
 * SQLite to turn into objects than every column (about 30 us of a check at 100,000 active bans).
 */
export const RENDERED_COLUMNS = [
  'network_id',
  'id',
  'target_uuid',
  'target_name',
  'issuer_name',
  'type_ordinal',
  'reason',
  'duration',
  'status',
  'data',
  'created_at',
  'started_at',
] as const satisfies ReadonlyArray<keyof RenderableRow>;

type Scope = { networkId: number };

/** The statements of {@link PunishmentStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PUNISHMENT_STATEMENTS = {
  insert: prepare<ReturnType<typeof toInsertParams>, never>('punishments.insert', ({ db }, p) =>
    db
      .insertInto('service_punishments')
      .values({
        network_id: p.networkId,
        id: p.id,
        target_uuid: p.targetUuid,
        target_name: p.targetName,
        issuer_name: p.issuerName,
        issuer_id: p.issuerId,
        type_ordinal: p.typeOrdinal,
        reason: p.reason,
        duration: p.duration,
        severity: p.severity,
        status: p.status,
        data: p.data,
        ip_ban_key: p.ipBanKey,
        notes: p.notes,
        attached_ticket_ids: p.attachedTicketIds,
        created_at: p.createdAt,
        started_at: p.startedAt,
        updated_at: p.createdAt,
      })
      .onConflict((conflict) => conflict.columns(['network_id', 'id']).doNothing()),
  ),
  // The staff statistics' count of the issuer's day, in the creation's transaction.
  countIssued: prepare<Scope & { dayMs: number; issuerName: string }, never>('punishments.countIssued', ({ db }, p) =>
    db
      .insertInto('service_staff_issued_days')
      .values({ network_id: p.networkId, day_ms: p.dayMs, issuer_name: p.issuerName, punishments: 1 })
      .onConflict((conflict) =>
        conflict
          .columns(['network_id', 'day_ms', 'issuer_name'])
          .doUpdateSet({ punishments: sql<number>`service_staff_issued_days.punishments + 1` }),
      ),
  ),
  byId: prepare<Scope & { id: string }, PunishmentRow>('punishments.byId', ({ db }, p) =>
    db
      .selectFrom('service_punishments')
      .select(PUNISHMENT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('id', '=', p.id),
  ),
  recent: prepare<Scope & { sinceMs: number; limit: number }, PunishmentRow>(
    'punishments.recent',
    ({ db, choices }, p) =>
      db
        .selectFrom('service_punishments')
        .select(PUNISHMENT_COLUMNS)
        .where('network_id', '=', p.networkId)
        .where('created_at', '>=', p.sinceMs)
        .orderBy('created_at', 'desc')
        .orderBy(choices.insertionOrder, 'desc')
        .limit(p.limit),
  ),
  active: prepare<Scope, PunishmentRow>('punishments.active', ({ db }, p) =>
    db
      .selectFrom('service_punishments')
      .select(PUNISHMENT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('status', '=', sql.lit('active'))
      .orderBy('created_at', 'desc'),
  ),
  activeFor: prepare<Scope & { uuid: string }, RenderableRow>('punishments.activeFor', ({ db }, p) =>
    db
      .selectFrom('service_punishments')
      .select(RENDERED_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('target_uuid', '=', p.uuid)
      .where('status', '=', sql.lit('active'))
      .orderBy('created_at', 'desc'),
  ),
  activeWithDataFor: prepare<Scope & { uuid: string }, PunishmentRow>('punishments.activeWithDataFor', ({ db }, p) =>
    db
      .selectFrom('service_punishments')
      .select(PUNISHMENT_COLUMNS)
      .where('network_id', '=', p.networkId)
      .where('target_uuid', '=', p.uuid)
      .where('status', '=', sql.lit('active'))
      .where('data', 'is not', null)
      .orderBy('created_at', 'desc'),
  ),
  history: prepare<Scope & { uuid: string }, PastPunishment>('punishments.history', ({ db }, p) =>
    db
      .selectFrom('service_punishments')
      .select([
        'type_ordinal as typeOrdinal',
        'severity',
        'status',
        'duration',
        'created_at as createdAt',
        'started_at as startedAt',
      ])
      .where('network_id', '=', p.networkId)
      .where('target_uuid', '=', p.uuid),
  ),
  setStatus: prepare<Scope & { id: string; status: string; nowMs: number }, never>(
    'punishments.setStatus',
    ({ db }, p) =>
      db
        .updateTable('service_punishments')
        .set({ status: p.status, updated_at: p.nowMs })
        .where('network_id', '=', p.networkId)
        .where('id', '=', p.id)
        .where('status', '<>', p.status),
  ),
  markStarted: prepare<Scope & { id: string; startedAt: number; nowMs: number }, never>(
    'punishments.markStarted',
    ({ db }, p) =>
      db
        .updateTable('service_punishments')
        .set({ started_at: p.startedAt, updated_at: p.nowMs })
        .where('network_id', '=', p.networkId)
        .where('id', '=', p.id)
        .where('started_at', 'is', null),
  ),
};

const q = PUNISHMENT_STATEMENTS;

/** Punishments of all networks; every read is scoped to one network. */
export class PunishmentStore {
  constructor(private readonly sql: SqlContext) {}

  /** Inserts unless a punishment with this id exists in the network; true when inserted. */
  async insert(record: NewPunishment): Promise<boolean> {
    const params = toInsertParams(record);
    if ((await q.insert.run(this.sql, params)) !== 1) return false;
    const dayMs = params.createdAt - (params.createdAt % DAY_MS);
    await q.countIssued.run(this.sql, { networkId: params.networkId, dayMs, issuerName: params.issuerName });
    return true;
  }

  find(networkId: number, id: string): Promise<PunishmentRow | undefined> {
    return q.byId.first(this.sql, { networkId, id });
  }

  recent(networkId: number, sinceMs: number, limit: number): Promise<PunishmentRow[]> {
    return q.recent.all(this.sql, { networkId, sinceMs, limit });
  }

  active(networkId: number): Promise<PunishmentRow[]> {
    return q.active.all(this.sql, { networkId });
  }

  /** Every active punishment of one player, however old, newest first. */
  activeFor(networkId: number, playerUuid: string): Promise<RenderableRow[]> {
    return q.activeFor.all(this.sql, { networkId, uuid: playerUuid.toLowerCase() });
  }

  activeWithDataFor(networkId: number, playerUuid: string): Promise<PunishmentRow[]> {
    return q.activeWithDataFor.all(this.sql, { networkId, uuid: playerUuid.toLowerCase() });
  }

  historyOf(networkId: number, playerUuid: string): Promise<PastPunishment[]> {
    return q.history.all(this.sql, { networkId, uuid: playerUuid.toLowerCase() });
  }

  /** True when the status actually changed. */
  async setStatus(networkId: number, id: string, status: string, nowMs: number): Promise<boolean> {
    return (await q.setStatus.run(this.sql, { networkId, id, status, nowMs })) === 1;
  }

  /** Sets `started` the first time only; true when it was set now. */
  async markStarted(networkId: number, id: string, startedAt: number, nowMs: number): Promise<boolean> {
    const values = { networkId, id, startedAt: checkDateMs(startedAt, 'started'), nowMs };
    return (await q.markStarted.run(this.sql, values)) === 1;
  }
}
