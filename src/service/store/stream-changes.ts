import type { Db } from '../../db/open-db.js';
import type { PunishmentRow } from './punishment-rows.js';

/** Where a network's change log stands. */
export interface StreamHead {
  /** Names this log: a client's sequence from another log (another database) means nothing here. */
  epoch: string;
  /** Sequence of the newest change; 0 before the first. */
  sequence: number;
  /** Changes up to this sequence have been pruned: a client behind it needs a snapshot. */
  prunedThrough: number;
}

/** A network's newest logged change. */
export interface NewestSequence {
  networkId: number;
  sequence: number;
}

/** A logged change and the punishment as it is now. */
export type LoggedChange = PunishmentRow & { sequence: number };

/** The statements of {@link StreamChangeStore}; test/service/query-plans.test.ts checks each one's plan. */
export const STREAM_CHANGE_SQL = {
  ensureHead: 'INSERT OR IGNORE INTO service_stream_heads (network_id, epoch) VALUES (?, lower(hex(randomblob(8))))',
  head: `SELECT h.epoch, h.pruned_through AS prunedThrough, COALESCE(
      (SELECT MAX(c.sequence) FROM service_stream_changes c WHERE c.network_id = h.network_id), h.pruned_through
    ) AS sequence
    FROM service_stream_heads h WHERE h.network_id = ?`,
  changesAfter: `SELECT p.*, c.sequence AS sequence FROM service_stream_changes c
    JOIN service_punishments p ON p.network_id = c.network_id AND p.id = c.punishment_id
    WHERE c.network_id = @networkId AND c.sequence > @after ORDER BY c.sequence LIMIT @limit`,
  // Asked right after the change: walking back from the newest finds it within a few rows.
  sequenceOf: `SELECT sequence FROM service_stream_changes WHERE network_id = ? AND punishment_id = ?
    ORDER BY sequence DESC LIMIT 1`,
  // One row per network, each with its newest sequence read from the end of the primary key.
  heads: `SELECT networks.id AS networkId,
      (SELECT MAX(c.sequence) FROM service_stream_changes c WHERE c.network_id = networks.id) AS sequence
    FROM service_networks networks`,
  prune: 'DELETE FROM service_stream_changes WHERE network_id = ? AND sequence <= ?',
  markPruned: 'UPDATE service_stream_heads SET pruned_through = MAX(pruned_through, ?) WHERE network_id = ?',
  // (created_at, rowid) is the order of the (network_id, status, created_at) index, so each page is a range scan.
  activePage: `SELECT rowid AS page_rowid, * FROM service_punishments
    WHERE network_id = @networkId AND status = 'active' AND (created_at, rowid) > (@afterCreatedAt, @afterRowid)
    ORDER BY created_at, rowid LIMIT @limit`,
} as const;

/**
 * The per-network change log of punishments (written by triggers of migration 7), read by the
 * stream to resume a client from the last sequence it applied, and pruned to a bounded length.
 */
export class StreamChangeStore {
  private readonly ensureHead;
  private readonly headStatement;
  private readonly changesStatement;
  private readonly sequenceOfStatement;
  private readonly headsStatement;
  private readonly pruneStatement;
  private readonly markPrunedStatement;
  private readonly activePageStatement;

  constructor(private readonly db: Db) {
    this.ensureHead = db.prepare<[number]>(STREAM_CHANGE_SQL.ensureHead);
    this.headStatement = db.prepare<[number], StreamHead>(STREAM_CHANGE_SQL.head);
    this.changesStatement = db.prepare<{ networkId: number; after: number; limit: number }, LoggedChange>(
      STREAM_CHANGE_SQL.changesAfter,
    );
    this.sequenceOfStatement = db.prepare<[number, string], { sequence: number }>(STREAM_CHANGE_SQL.sequenceOf);
    this.headsStatement = db.prepare<[], { networkId: number; sequence: number | null }>(STREAM_CHANGE_SQL.heads);
    this.pruneStatement = db.prepare<[number, number]>(STREAM_CHANGE_SQL.prune);
    this.markPrunedStatement = db.prepare<[number, number]>(STREAM_CHANGE_SQL.markPruned);
    this.activePageStatement = db.prepare<
      { networkId: number; afterCreatedAt: number; afterRowid: number; limit: number },
      ActiveRow
    >(STREAM_CHANGE_SQL.activePage);
  }

  /** The network's head, created (sequence 0, a fresh epoch) the first time it is asked for. */
  head(networkId: number): StreamHead {
    const existing = this.headStatement.get(networkId);
    if (existing) return existing;
    this.ensureHead.run(networkId);
    return this.headStatement.get(networkId)!;
  }

  /** Up to `limit` changes after sequence `after`, oldest first, each with the punishment's current row. */
  changesAfter(networkId: number, after: number, limit: number): LoggedChange[] {
    return this.changesStatement.all({ networkId, after, limit });
  }

  /** The sequence of the newest change of one punishment, or undefined when none is logged. */
  sequenceOf(networkId: number, punishmentId: string): number | undefined {
    return this.sequenceOfStatement.get(networkId, punishmentId)?.sequence ?? undefined;
  }

  /** Every network whose log holds a change, with its newest sequence. */
  newestSequences(): NewestSequence[] {
    return this.headsStatement.all().filter((head): head is NewestSequence => head.sequence !== null);
  }

  /** Active punishments after the last row of the previous page (none: from the first), oldest first: one page of a snapshot. */
  activePage(networkId: number, after: PageCursor | undefined, limit: number): ActiveRow[] {
    return this.activePageStatement.all({
      networkId,
      afterCreatedAt: after?.created_at ?? Number.MIN_SAFE_INTEGER,
      afterRowid: after?.page_rowid ?? 0,
      limit,
    });
  }

  /**
   * Keeps the newest `retained` changes of every network, deleting at most `maxRows` of each
   * network's oldest (all of them when left out); returns how many were deleted.
   */
  prune(retained: number, maxRows = Number.POSITIVE_INFINITY): number {
    return this.db.transaction(() => {
      let deleted = 0;
      for (const { networkId, sequence } of this.headsStatement.all()) {
        const beyond = (sequence ?? 0) - retained;
        if (beyond <= 0) continue;
        this.ensureHead.run(networkId);
        const through = Math.min(beyond, this.headStatement.get(networkId)!.prunedThrough + maxRows);
        deleted += this.pruneStatement.run(networkId, through).changes;
        this.markPrunedStatement.run(through, networkId);
      }
      return deleted;
    })();
  }
}

/** An active row with the rowid its page continues after. */
export type ActiveRow = PunishmentRow & { page_rowid: number };

/** Where the next page of a snapshot starts: after this row. */
export type PageCursor = Pick<ActiveRow, 'created_at' | 'page_rowid'>;
