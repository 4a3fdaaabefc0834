import type { Db } from '../db/open-db.js';
import type { DeadLetter, OutboxStats } from './types.js';

/** Read-side queries shared by `Outbox` and the `bailiff outbox` command. */
export function createOutboxInspector(db: Db) {
  const counts = db.prepare<[], { status: string; n: number }>(
    'SELECT status, count(*) AS n FROM outbox GROUP BY status',
  );
  const oldestUnfinished = db.prepare<[], { at: number | null }>(
    "SELECT min(created_at) AS at FROM outbox WHERE status IN ('pending', 'in_flight')",
  );
  const nextDue = db.prepare<[], { at: number | null }>(
    "SELECT min(available_at) AS at FROM outbox WHERE status = 'pending'",
  );
  const dead = db.prepare<{ limit: number }, DeadLetter>(`
    SELECT id, operation, idempotency_key AS idempotencyKey, ordering_key AS orderingKey, attempts,
      coalesce(dead_reason, '') AS reason, created_at AS createdAt, finished_at AS deadAt
    FROM outbox WHERE status = 'dead' ORDER BY id LIMIT @limit`);
  const requeueOne = db.prepare<{ id: number; now: number }>(`
    UPDATE outbox SET status = 'pending', attempts = 0, available_at = @now, age_from = @now,
      dead_reason = NULL, finished_at = NULL
    WHERE id = @id AND status = 'dead'`);
  const requeueAll = db.prepare<{ now: number }>(`
    UPDATE outbox SET status = 'pending', attempts = 0, available_at = @now, age_from = @now,
      dead_reason = NULL, finished_at = NULL
    WHERE status = 'dead'`);
  const requeueMany = db.transaction((ids: readonly number[], now: number) =>
    ids.reduce((total, id) => total + requeueOne.run({ id, now }).changes, 0),
  );

  return {
    stats(now: number, pausedUntil: number | null = null): OutboxStats {
      const byStatus = new Map(counts.all().map((row) => [row.status, row.n]));
      const oldest = oldestUnfinished.get()?.at ?? null;
      return {
        pending: byStatus.get('pending') ?? 0,
        inFlight: byStatus.get('in_flight') ?? 0,
        dead: byStatus.get('dead') ?? 0,
        sent: byStatus.get('sent') ?? 0,
        oldestPendingAgeMs: oldest === null ? null : Math.max(0, now - oldest),
        nextAttemptAt: nextDue.get()?.at ?? null,
        pausedUntil: pausedUntil !== null && pausedUntil > now ? pausedUntil : null,
      };
    },
    deadLetters: (limit = 100): DeadLetter[] => dead.all({ limit }),
    /** Dead rows back to pending with a fresh attempt count and age; returns how many. */
    retryDead(now: number, ids?: readonly number[]): number {
      if (ids === undefined) return requeueAll.run({ now }).changes;
      return requeueMany.immediate(ids, now);
    },
  };
}

export type OutboxInspector = ReturnType<typeof createOutboxInspector>;
