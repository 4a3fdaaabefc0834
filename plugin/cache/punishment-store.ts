import type { Statement } from 'better-sqlite3';
import type { Db } from '../../src/db/open-db.js';
import type { CachedPunishment } from './cached-punishment.js';

interface PunishmentRow {
  id: string;
  target_uuid: string;
  target_name: string;
  type_ordinal: number;
  reason: string;
  issuer_name: string;
  duration_ms: number;
  created_at: string;
  status: string;
  started_at: number | null;
  acknowledged: number;
  notified: number;
  ip_address: string | null;
  alt_blocking: number;
  linked_ban_id: string | null;
}

function toPunishment(row: PunishmentRow): CachedPunishment {
  return {
    id: row.id,
    targetUuid: row.target_uuid,
    targetName: row.target_name,
    typeOrdinal: row.type_ordinal,
    reason: row.reason,
    issuerName: row.issuer_name,
    durationMs: row.duration_ms,
    createdAt: row.created_at,
    status: row.status,
    startedAt: row.started_at,
    acknowledged: row.acknowledged === 1,
    notified: row.notified === 1,
    ...(row.ip_address === null ? {} : { ipAddress: row.ip_address }),
    ...(row.alt_blocking === 1 ? { altBlocking: true } : {}),
    ...(row.linked_ban_id === null ? {} : { linkedBanId: row.linked_ban_id }),
  };
}

/** The columns the active indexes are built from. */
export type IndexFields = Pick<
  CachedPunishment,
  'id' | 'targetUuid' | 'typeOrdinal' | 'status' | 'durationMs' | 'startedAt' | 'ipAddress'
>;

type IndexFieldsRow = [string, string, number, string, number, number | null, string | null];

/** The `cache_punishments` table. Statements are prepared once; callers own the transactions. */
export class PunishmentStore {
  readonly #upsert: Statement;
  readonly #byId: Statement<[string], PunishmentRow>;
  readonly #byTarget: Statement<[string], PunishmentRow>;
  readonly #byAddress: Statement<[string], PunishmentRow>;
  readonly #indexFields: Statement<[], IndexFieldsRow>;
  readonly #storedBefore: Statement<[number], PunishmentRow>;
  readonly #count: Statement<[], { count: number }>;
  readonly #delete: Statement<[string]>;

  constructor(db: Db) {
    this.#upsert = db.prepare(`
      INSERT INTO cache_punishments (id, target_uuid, target_name, type_ordinal, reason, issuer_name, duration_ms,
        created_at, status, started_at, acknowledged, notified, ip_address, alt_blocking, linked_ban_id, updated_at)
      VALUES (@id, @targetUuid, @targetName, @typeOrdinal, @reason, @issuerName, @durationMs,
        @createdAt, @status, @startedAt, @acknowledged, @notified, @ipAddress, @altBlocking, @linkedBanId, @updatedAt)
      ON CONFLICT (id) DO UPDATE SET target_uuid = excluded.target_uuid, target_name = excluded.target_name,
        type_ordinal = excluded.type_ordinal, reason = excluded.reason, issuer_name = excluded.issuer_name,
        duration_ms = excluded.duration_ms, created_at = excluded.created_at, status = excluded.status,
        started_at = excluded.started_at, acknowledged = excluded.acknowledged, notified = excluded.notified,
        ip_address = excluded.ip_address, alt_blocking = excluded.alt_blocking, linked_ban_id = excluded.linked_ban_id,
        updated_at = excluded.updated_at`);
    this.#byId = db.prepare('SELECT * FROM cache_punishments WHERE id = ?');
    this.#byTarget = db.prepare('SELECT * FROM cache_punishments WHERE target_uuid = ? ORDER BY created_at, rowid');
    this.#byAddress = db.prepare('SELECT * FROM cache_punishments WHERE ip_address = ? ORDER BY created_at, rowid');
    // Positional columns: the start-up load reads 100,000 rows, and the fewer objects it makes the less memory it leaves.
    this.#indexFields = db
      .prepare<[], IndexFieldsRow>(
        'SELECT id, target_uuid, type_ordinal, status, duration_ms, started_at, ip_address FROM cache_punishments',
      )
      .raw();
    this.#storedBefore = db.prepare('SELECT * FROM cache_punishments WHERE updated_at < ?');
    this.#count = db.prepare('SELECT count(*) AS count FROM cache_punishments');
    this.#delete = db.prepare('DELETE FROM cache_punishments WHERE id = ?');
  }

  save(punishment: CachedPunishment, updatedAt: number): void {
    this.#upsert.run({
      ...punishment,
      acknowledged: punishment.acknowledged ? 1 : 0,
      notified: punishment.notified ? 1 : 0,
      ipAddress: punishment.ipAddress ?? null,
      altBlocking: punishment.altBlocking ? 1 : 0,
      linkedBanId: punishment.linkedBanId ?? null,
      updatedAt,
    });
  }

  get(id: string): CachedPunishment | undefined {
    const row = this.#byId.get(id);
    return row ? toPunishment(row) : undefined;
  }

  forTarget(uuid: string): CachedPunishment[] {
    return this.#byTarget.all(uuid.toLowerCase()).map(toPunishment);
  }

  /** The IP bans of one address or range (canonical text), oldest first. */
  forAddress(ipAddress: string): CachedPunishment[] {
    return this.#byAddress.all(ipAddress).map(toPunishment);
  }

  /** What the in-memory index needs of every row, streamed; the callback's argument is reused. */
  forEachIndexFields(visit: (fields: IndexFields) => void): void {
    const fields: IndexFields = { id: '', targetUuid: '', typeOrdinal: 0, status: '', durationMs: 0, startedAt: null };
    for (const [id, targetUuid, typeOrdinal, status, durationMs, startedAt, ipAddress] of this.#indexFields.iterate()) {
      fields.id = id;
      fields.targetUuid = targetUuid;
      fields.typeOrdinal = typeOrdinal;
      fields.status = status;
      fields.durationMs = durationMs;
      fields.startedAt = startedAt;
      fields.ipAddress = ipAddress ?? undefined;
      visit(fields);
    }
  }

  /** Rows last written before `updatedAt` (epoch ms), streamed. */
  *iterateStoredBefore(updatedAt: number): IterableIterator<CachedPunishment> {
    for (const row of this.#storedBefore.iterate(updatedAt)) yield toPunishment(row);
  }

  delete(id: string): void {
    this.#delete.run(id);
  }

  count(): number {
    return this.#count.get()?.count ?? 0;
  }
}
