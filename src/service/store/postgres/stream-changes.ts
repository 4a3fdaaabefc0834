import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { ActiveRow, LoggedChange, NewestSequence, PageCursor, StreamHead } from '../stream-changes.js';
import { PUNISHMENT_COLUMNS, punishmentColumnsOf } from './punishment-columns.js';
import { STREAM_LOCK_CLASS } from './schema.js';

/** The statements of {@link PgStreamChangeStore}. */
export const PG_STREAM_CHANGE_SQL = pgStatements('streamChanges', {
  ensureHead: `INSERT INTO service_stream_heads (network_id, epoch)
    VALUES ($1, substr(md5(gen_random_uuid()::text), 1, 16)) ON CONFLICT DO NOTHING`,
  head: `SELECT h.epoch, h.pruned_through AS "prunedThrough", COALESCE(
      (SELECT MAX(c.sequence) FROM service_stream_changes c WHERE c.network_id = h.network_id), h.pruned_through
    ) AS sequence
    FROM service_stream_heads h WHERE h.network_id = $1`,
  changesAfter: `SELECT ${punishmentColumnsOf('p')}, c.sequence AS sequence FROM service_stream_changes c
    JOIN service_punishments p ON p.network_id = c.network_id AND p.id = c.punishment_id
    WHERE c.network_id = $1 AND c.sequence > $2 ORDER BY c.sequence LIMIT $3`,
  sequenceOf: `SELECT sequence FROM service_stream_changes WHERE network_id = $1 AND punishment_id = $2
    ORDER BY sequence DESC LIMIT 1`,
  heads: `SELECT networks.id AS "networkId",
      (SELECT MAX(c.sequence) FROM service_stream_changes c WHERE c.network_id = networks.id) AS sequence
    FROM service_networks networks`,
  // The lock the change-log triggers take (schema.ts): pruning waits for a network's writers.
  lockNetworkLog: 'SELECT pg_advisory_xact_lock($1, $2)',
  prune: 'DELETE FROM service_stream_changes WHERE network_id = $1 AND sequence <= $2',
  markPruned: 'UPDATE service_stream_heads SET pruned_through = greatest(pruned_through, $2) WHERE network_id = $1',
  // row_id stands in for SQLite's rowid; (created_at, row_id) is the order of the status index.
  activePage: `SELECT row_id AS page_rowid, ${PUNISHMENT_COLUMNS} FROM service_punishments
    WHERE network_id = $1 AND status = 'active' AND (created_at, row_id) > ($2, $3)
    ORDER BY created_at, row_id LIMIT $4`,
});

/** The per-network change log of punishments on PostgreSQL (written by the schema's triggers). */
export class PgStreamChangeStore {
  constructor(private readonly db: PgDb) {}

  /** The network's head, created (sequence 0, a fresh epoch) the first time it is asked for. */
  async head(networkId: number): Promise<StreamHead> {
    const existing = await this.db.row<StreamHead>(PG_STREAM_CHANGE_SQL.head, [networkId]);
    if (existing) return existing;
    await this.db.run(PG_STREAM_CHANGE_SQL.ensureHead, [networkId]);
    return (await this.db.row<StreamHead>(PG_STREAM_CHANGE_SQL.head, [networkId]))!;
  }

  /** Up to `limit` changes after sequence `after`, oldest first, each with the punishment's current row. */
  changesAfter(networkId: number, after: number, limit: number): Promise<LoggedChange[]> {
    return this.db.rows(PG_STREAM_CHANGE_SQL.changesAfter, [networkId, after, limit]);
  }

  /** The sequence of the newest change of one punishment, or undefined when none is logged. */
  async sequenceOf(networkId: number, punishmentId: string): Promise<number | undefined> {
    const row = await this.db.row<{ sequence: number }>(PG_STREAM_CHANGE_SQL.sequenceOf, [networkId, punishmentId]);
    return row?.sequence;
  }

  /** Every network whose log holds a change, with its newest sequence. */
  async newestSequences(): Promise<NewestSequence[]> {
    const heads = await this.db.rows<{ networkId: number; sequence: number | null }>(PG_STREAM_CHANGE_SQL.heads);
    return heads.filter((head): head is NewestSequence => head.sequence !== null);
  }

  /** Active punishments after the last row of the previous page (none: from the first), oldest first. */
  activePage(networkId: number, after: PageCursor | undefined, limit: number): Promise<ActiveRow[]> {
    const afterCreatedAt = after?.created_at ?? Number.MIN_SAFE_INTEGER;
    return this.db.rows(PG_STREAM_CHANGE_SQL.activePage, [networkId, afterCreatedAt, after?.page_rowid ?? 0, limit]);
  }

  /**
   * Keeps the newest `retained` changes of every network, deleting at most `maxRows` of each
   * network's oldest (all of them when left out); returns how many were deleted.
   */
  prune(retained: number, maxRows = Number.POSITIVE_INFINITY): Promise<number> {
    return this.db.transaction(async (tx) => {
      let deleted = 0;
      const heads = await tx.rows<{ networkId: number; sequence: number | null }>(PG_STREAM_CHANGE_SQL.heads);
      for (const { networkId, sequence } of heads) {
        const beyond = (sequence ?? 0) - retained;
        if (beyond <= 0) continue;
        await tx.run(PG_STREAM_CHANGE_SQL.lockNetworkLog, [STREAM_LOCK_CLASS, networkId]);
        await tx.run(PG_STREAM_CHANGE_SQL.ensureHead, [networkId]);
        const head = await tx.row<StreamHead>(PG_STREAM_CHANGE_SQL.head, [networkId]);
        const through = Math.min(beyond, (head?.prunedThrough ?? 0) + maxRows);
        deleted += await tx.run(PG_STREAM_CHANGE_SQL.prune, [networkId, through]);
        await tx.run(PG_STREAM_CHANGE_SQL.markPruned, [networkId, through]);
      }
      return deleted;
    });
  }
}
