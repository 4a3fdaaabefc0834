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

/** A logged change and the punishment as it is now. */
export type LoggedChange = PunishmentRow & { sequence: number };

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
    this.ensureHead = db.prepare<[number]>(
      `INSERT OR IGNORE INTO service_stream_heads (network_id, epoch) VALUES (?, lower(hex(randomblob(8))))`,
    );
    this.headStatement = db.prepare<[number], StreamHead>(
      `SELECT h.epoch, h.pruned_through AS prunedThrough, COALESCE(
         (SELECT MAX(c.sequence) FROM service_stream_changes c WHERE c.network_id = h.network_id), h.pruned_through
       ) AS sequence
       FROM service_stream_heads h WHERE h.network_id = ?`,
    );
    this.changesStatement = db.prepare<{ networkId: number; after: number; limit: number }, LoggedChange>(
      `SELECT p.*, c.sequence AS sequence FROM service_stream_changes c
       JOIN service_punishments p ON p.network_id = c.network_id AND p.id = c.punishment_id
       WHERE c.network_id = @networkId AND c.sequence > @after ORDER BY c.sequence LIMIT @limit`,
    );
    // Asked right after the change: walking back from the newest finds it within a few rows.
    this.sequenceOfStatement = db.prepare<[number, string], { sequence: number }>(
      `SELECT sequence FROM service_stream_changes WHERE network_id = ? AND punishment_id = ?
       ORDER BY sequence DESC LIMIT 1`,
    );
    this.headsStatement = db.prepare<[], { networkId: number; sequence: number | null }>(
      `SELECT n.id AS networkId,
         (SELECT MAX(c.sequence) FROM service_stream_changes c WHERE c.network_id = n.id) AS sequence
       FROM service_networks n`,
    );
    this.pruneStatement = db.prepare<[number, number]>(
      'DELETE FROM service_stream_changes WHERE network_id = ? AND sequence <= ?',
    );
    this.markPrunedStatement = db.prepare<[number, number]>(
      'UPDATE service_stream_heads SET pruned_through = MAX(pruned_through, ?) WHERE network_id = ?',
    );
    // rowid order follows the (network_id, status) index, so each page is a range scan.
    this.activePageStatement = db.prepare<{ networkId: number; afterRowid: number; limit: number }, ActiveRow>(
      `SELECT rowid AS page_rowid, * FROM service_punishments
       WHERE network_id = @networkId AND status = 'active' AND rowid > @afterRowid ORDER BY rowid LIMIT @limit`,
    );
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

  /** Active punishments with a rowid above `afterRowid`, in rowid order: one page of a snapshot. */
  activePage(networkId: number, afterRowid: number, limit: number): ActiveRow[] {
    return this.activePageStatement.all({ networkId, afterRowid, limit });
  }

  /** Keeps the newest `retained` changes of every network; returns how many were deleted. */
  prune(retained: number): number {
    return this.db.transaction(() => {
      let deleted = 0;
      for (const { networkId, sequence } of this.headsStatement.all()) {
        const through = (sequence ?? 0) - retained;
        if (through <= 0) continue;
        this.ensureHead.run(networkId);
        deleted += this.pruneStatement.run(networkId, through).changes;
        this.markPrunedStatement.run(through, networkId);
      }
      return deleted;
    })();
  }
}

/** An active row with the rowid its page continues after. */
export type ActiveRow = PunishmentRow & { page_rowid: number };
