import type { PastPunishment } from '../../rules/preview.js';
import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { checkDateMs } from '../dates.js';
import type { NewPunishment, PunishmentRow } from '../punishment-rows.js';
import { toInsertParams } from '../punishment-rows.js';
import { PUNISHMENT_COLUMNS } from './punishment-columns.js';

/** The statements of {@link PgPunishmentStore}. */
export const PG_PUNISHMENT_SQL = pgStatements('punishments', {
  insert: `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, issuer_id,
      type_ordinal, reason, duration, severity, status, data, ip_ban_key, notes, attached_ticket_ids, created_at,
      started_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16)
    ON CONFLICT (network_id, id) DO NOTHING`,
  byId: `SELECT ${PUNISHMENT_COLUMNS} FROM service_punishments WHERE network_id = $1 AND id = $2`,
  recent: `SELECT ${PUNISHMENT_COLUMNS} FROM service_punishments WHERE network_id = $1 AND created_at >= $2
    ORDER BY created_at DESC, row_id DESC LIMIT $3`,
  active: `SELECT ${PUNISHMENT_COLUMNS} FROM service_punishments WHERE network_id = $1 AND status = 'active'
    ORDER BY created_at DESC`,
  activeFor: `SELECT ${PUNISHMENT_COLUMNS} FROM service_punishments
    WHERE network_id = $1 AND target_uuid = $2 AND status = 'active' ORDER BY created_at DESC`,
  history: `SELECT type_ordinal AS "typeOrdinal", severity, status, duration, created_at AS "createdAt",
      started_at AS "startedAt"
    FROM service_punishments WHERE network_id = $1 AND target_uuid = $2`,
  setStatus: `UPDATE service_punishments SET status = $3, updated_at = $4
    WHERE network_id = $1 AND id = $2 AND status <> $3`,
  markStarted: `UPDATE service_punishments SET started_at = $3, updated_at = $4
    WHERE network_id = $1 AND id = $2 AND started_at IS NULL`,
});

/** Punishments of all networks on PostgreSQL; every read is scoped to one network. */
export class PgPunishmentStore {
  constructor(private readonly db: PgDb) {}

  /** Inserts unless a punishment with this id exists in the network; true when inserted. */
  async insert(record: NewPunishment): Promise<boolean> {
    const p = toInsertParams(record);
    const inserted = await this.db.run(PG_PUNISHMENT_SQL.insert, [
      p.networkId,
      p.id,
      p.targetUuid,
      p.targetName,
      p.issuerName,
      p.issuerId,
      p.typeOrdinal,
      p.reason,
      p.duration,
      p.severity,
      p.status,
      p.data,
      p.ipBanKey,
      p.notes,
      p.attachedTicketIds,
      p.createdAt,
      p.startedAt,
    ]);
    return inserted === 1;
  }

  find(networkId: number, id: string): Promise<PunishmentRow | undefined> {
    return this.db.row(PG_PUNISHMENT_SQL.byId, [networkId, id]);
  }

  recent(networkId: number, sinceMs: number, limit: number): Promise<PunishmentRow[]> {
    return this.db.rows(PG_PUNISHMENT_SQL.recent, [networkId, sinceMs, limit]);
  }

  active(networkId: number): Promise<PunishmentRow[]> {
    return this.db.rows(PG_PUNISHMENT_SQL.active, [networkId]);
  }

  /** Every active punishment of one player, however old, newest first. */
  activeFor(networkId: number, playerUuid: string): Promise<PunishmentRow[]> {
    return this.db.rows(PG_PUNISHMENT_SQL.activeFor, [networkId, playerUuid.toLowerCase()]);
  }

  historyOf(networkId: number, playerUuid: string): Promise<PastPunishment[]> {
    return this.db.rows(PG_PUNISHMENT_SQL.history, [networkId, playerUuid.toLowerCase()]);
  }

  /** True when the status actually changed. */
  async setStatus(networkId: number, id: string, status: string, nowMs: number): Promise<boolean> {
    return (await this.db.run(PG_PUNISHMENT_SQL.setStatus, [networkId, id, status, nowMs])) === 1;
  }

  /** Sets `started` the first time only; true when it was set now. */
  async markStarted(networkId: number, id: string, startedAt: number, nowMs: number): Promise<boolean> {
    const values = [networkId, id, checkDateMs(startedAt, 'started'), nowMs];
    return (await this.db.run(PG_PUNISHMENT_SQL.markStarted, values)) === 1;
  }
}
