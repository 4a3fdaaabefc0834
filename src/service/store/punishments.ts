import type { Db } from '../../db/open-db.js';
import type { PastPunishment } from '../rules/preview.js';
import { checkDateMs } from './dates.js';
import type { NewPunishment, PunishmentRow } from './punishment-rows.js';
import { toInsertParams } from './punishment-rows.js';

/** The statements of {@link PunishmentStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PUNISHMENT_SQL = {
  insert: `INSERT OR IGNORE INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, issuer_id,
      type_ordinal, reason, duration, severity, status, data, ip_ban_key, notes, attached_ticket_ids, created_at,
      started_at, updated_at)
    VALUES (@networkId, @id, @targetUuid, @targetName, @issuerName, @issuerId, @typeOrdinal, @reason, @duration,
      @severity, @status, @data, @ipBanKey, @notes, @attachedTicketIds, @createdAt, @startedAt, @createdAt)`,
  byId: 'SELECT * FROM service_punishments WHERE network_id = ? AND id = ?',
  recent: `SELECT * FROM service_punishments WHERE network_id = @networkId AND created_at >= @sinceMs
    ORDER BY created_at DESC, rowid DESC LIMIT @limit`,
  active: `SELECT * FROM service_punishments WHERE network_id = ? AND status = 'active' ORDER BY created_at DESC`,
  activeFor: `SELECT * FROM service_punishments WHERE network_id = ? AND target_uuid = ? AND status = 'active'
    ORDER BY created_at DESC`,
  history: `SELECT type_ordinal AS typeOrdinal, severity, status, duration, created_at AS createdAt,
      started_at AS startedAt
    FROM service_punishments WHERE network_id = ? AND target_uuid = ?`,
  setStatus: `UPDATE service_punishments SET status = @status, updated_at = @nowMs
    WHERE network_id = @networkId AND id = @id AND status <> @status`,
  markStarted: `UPDATE service_punishments SET started_at = @startedAt, updated_at = @nowMs
    WHERE network_id = @networkId AND id = @id AND started_at IS NULL`,
} as const;

/** Punishments of all networks; every read is scoped to one network. */
export class PunishmentStore {
  private readonly insertStatement;
  private readonly byId;
  private readonly recentStatement;
  private readonly activeStatement;
  private readonly activeForStatement;
  private readonly historyStatement;
  private readonly statusStatement;
  private readonly startStatement;

  constructor(db: Db) {
    this.insertStatement = db.prepare<ReturnType<typeof toInsertParams>>(PUNISHMENT_SQL.insert);
    this.byId = db.prepare<[number, string], PunishmentRow>(PUNISHMENT_SQL.byId);
    this.recentStatement = db.prepare<{ networkId: number; sinceMs: number; limit: number }, PunishmentRow>(
      PUNISHMENT_SQL.recent,
    );
    this.activeStatement = db.prepare<[number], PunishmentRow>(PUNISHMENT_SQL.active);
    this.activeForStatement = db.prepare<[number, string], PunishmentRow>(PUNISHMENT_SQL.activeFor);
    this.historyStatement = db.prepare<[number, string], PastPunishment>(PUNISHMENT_SQL.history);
    this.statusStatement = db.prepare<{ networkId: number; id: string; status: string; nowMs: number }>(
      PUNISHMENT_SQL.setStatus,
    );
    this.startStatement = db.prepare<{ networkId: number; id: string; startedAt: number; nowMs: number }>(
      PUNISHMENT_SQL.markStarted,
    );
  }

  /** Inserts unless a punishment with this id exists in the network; true when inserted. */
  insert(record: NewPunishment): boolean {
    return this.insertStatement.run(toInsertParams(record)).changes === 1;
  }

  find(networkId: number, id: string): PunishmentRow | undefined {
    return this.byId.get(networkId, id);
  }

  recent(networkId: number, sinceMs: number, limit: number): PunishmentRow[] {
    return this.recentStatement.all({ networkId, sinceMs, limit });
  }

  active(networkId: number): PunishmentRow[] {
    return this.activeStatement.all(networkId);
  }

  /** Every active punishment of one player, however old, newest first. */
  activeFor(networkId: number, playerUuid: string): PunishmentRow[] {
    return this.activeForStatement.all(networkId, playerUuid.toLowerCase());
  }

  historyOf(networkId: number, playerUuid: string): PastPunishment[] {
    return this.historyStatement.all(networkId, playerUuid.toLowerCase());
  }

  /** True when the status actually changed. */
  setStatus(networkId: number, id: string, status: string, nowMs: number): boolean {
    return this.statusStatement.run({ networkId, id, status, nowMs }).changes === 1;
  }

  /** Sets `started` the first time only; true when it was set now. */
  markStarted(networkId: number, id: string, startedAt: number, nowMs: number): boolean {
    return (
      this.startStatement.run({ networkId, id, startedAt: checkDateMs(startedAt, 'started'), nowMs }).changes === 1
    );
  }
}
