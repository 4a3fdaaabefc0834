import type { Db } from '../db/open-db.js';
import { migrateOutbox } from './schema.js';
import type { OutboxOperation } from './types.js';

/** A row taken out of the outbox by {@link OperationShare.dropOldest}. */
export interface DroppedRow {
  id: number;
  payload: string;
}

/**
 * The rows of one operation in the outbox, for a caller that bounds its own share (chat-log
 * batches): how many wait, the oldest dropped first, the delivered forgotten at once. Rows in
 * flight are never touched. Every statement joins the caller's transaction.
 */
export interface OperationShare {
  /** Rows of the operation not delivered: pending (waiting or retrying) and dead. */
  waiting(): number;
  /** Removes the oldest waiting rows until at most `keep` are left; returns what it removed. */
  dropOldest(keep: number): DroppedRow[];
  /** Removes the operation's delivered rows (and those skipped as not offered); returns how many. */
  forgetDelivered(): number;
}

export function createOperationShare(db: Db, operation: OutboxOperation): OperationShare {
  migrateOutbox(db);
  const waiting = db.prepare<[string], { n: number }>(
    "SELECT count(*) AS n FROM outbox WHERE operation = ? AND status IN ('pending', 'dead')",
  );
  const oldest = db.prepare<[string, number], DroppedRow>(
    "SELECT id, payload FROM outbox WHERE operation = ? AND status IN ('pending', 'dead') ORDER BY id LIMIT ?",
  );
  const remove = db.prepare<[number]>("DELETE FROM outbox WHERE id = ? AND status IN ('pending', 'dead')");
  const delivered = db.prepare<[string]>("DELETE FROM outbox WHERE operation = ? AND status = 'sent'");
  return {
    waiting: () => waiting.get(operation)!.n,
    dropOldest(keep) {
      const excess = waiting.get(operation)!.n - Math.max(0, keep);
      if (excess <= 0) return [];
      const rows = oldest.all(operation, excess);
      for (const row of rows) remove.run(row.id);
      return rows;
    },
    forgetDelivered: () => delivered.run(operation).changes,
  };
}
