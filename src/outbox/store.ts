import type { Db } from '../db/open-db.js';
import type { ClaimedRow } from './claimed-row.js';
import type { Settlement } from './settlement.js';
import type { OutboxOperation } from './types.js';

export type { ClaimedRow } from './claimed-row.js';

export interface ClaimRequest {
  limit: number;
  claimToken: string;
  leaseMs: number;
  /** Tokens of this drain's unsettled claims: never taken back. */
  liveTokens: readonly string[];
}

export interface SettleAndClaimResult {
  written: boolean[];
  rows: ClaimedRow[];
  reclaimed: number;
}

export interface NewRow {
  operation: string;
  payload: string;
  idempotencyKey: string;
  orderingKey: string | null;
  now: number;
}

/**
 * Operations whose rows are deleted as soon as they are delivered instead of kept `keepSentMs`:
 * chat-log batches are large and never looked at again, and marking one sent would rewrite all of it.
 */
const FORGOTTEN_WHEN_SENT: ReadonlySet<string> = new Set<OutboxOperation>(['sendChatLog']);

/** Every statement the outbox runs while draining, prepared once. Updates of a claimed row check its token. */
export function createOutboxStore(db: Db) {
  const insert = db.prepare<NewRow, { id: number }>(`
    INSERT INTO outbox (operation, payload, idempotency_key, ordering_key, created_at, age_from, available_at)
    VALUES (@operation, @payload, @idempotencyKey, @orderingKey, @now, @now, @now)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING id`);
  const idByKey = db.prepare<{ idempotencyKey: string }, { id: number }>(
    'SELECT id FROM outbox WHERE idempotency_key = @idempotencyKey',
  );
  const ROW_FIELDS = `o.id, o.operation, o.payload, o.idempotency_key AS idempotencyKey, o.attempts,
    o.age_from AS ageFrom, o.outcome_unknown_since AS outcomeUnknownSince`;
  // A row waits while an earlier row with its ordering key is unfinished (dead counts as finished).
  const FIRST_OF_ITS_ORDER = `(o.ordering_key IS NULL OR NOT EXISTS (
        SELECT 1 FROM outbox AS e
        WHERE e.ordering_key = o.ordering_key AND e.status IN ('pending', 'in_flight') AND e.id < o.id))`;
  const selectDue = db.prepare<{ now: number; limit: number }, Omit<ClaimedRow, 'claimToken'>>(`
    SELECT ${ROW_FIELDS}
    FROM outbox AS o
    WHERE o.status = 'pending' AND o.available_at <= @now AND ${FIRST_OF_ITS_ORDER}
    ORDER BY o.available_at, o.id
    LIMIT @limit`);
  const selectIfFirst = db.prepare<{ id: number }, Omit<ClaimedRow, 'claimToken'>>(`
    SELECT ${ROW_FIELDS} FROM outbox AS o WHERE o.id = @id AND o.status = 'pending' AND ${FIRST_OF_ITS_ORDER}`);
  const markClaimed = db.prepare<{ id: number; claimToken: string; expiresAt: number }>(`
    UPDATE outbox SET status = 'in_flight', claim_token = @claimToken, expires_at = @expiresAt
    WHERE id = @id AND status = 'pending'`);
  const markSent = db.prepare<{
    id: number;
    claimToken: string;
    now: number;
    createdId: string | null;
    note: string | null;
  }>(`
    UPDATE outbox SET status = 'sent', finished_at = @now, claim_token = NULL, expires_at = NULL, last_error = @note,
      created_id = @createdId
    WHERE id = @id AND claim_token = @claimToken AND status = 'in_flight'`);
  const discard = db.prepare<{ id: number; claimToken: string }>(
    "DELETE FROM outbox WHERE id = @id AND claim_token = @claimToken AND status = 'in_flight'",
  );
  const createdIds = db.prepare<[], { id: string }>('SELECT created_id AS id FROM outbox WHERE created_id IS NOT NULL');
  const reschedule = db.prepare<{
    id: number;
    claimToken: string;
    attempts: number;
    availableAt: number;
    error: string;
    outcomeUnknownSince: number | null;
  }>(`
    UPDATE outbox SET status = 'pending', attempts = @attempts, available_at = @availableAt, last_error = @error,
      claim_token = NULL, expires_at = NULL,
      outcome_unknown_since = coalesce(outcome_unknown_since, @outcomeUnknownSince)
    WHERE id = @id AND claim_token = @claimToken AND status = 'in_flight'`);
  const release = db.prepare<{ id: number; claimToken: string }>(`
    UPDATE outbox SET status = 'pending', claim_token = NULL, expires_at = NULL
    WHERE id = @id AND claim_token = @claimToken AND status = 'in_flight'`);
  const markDead = db.prepare<{ id: number; claimToken: string; attempts: number; reason: string; now: number }>(`
    UPDATE outbox SET status = 'dead', attempts = @attempts, dead_reason = @reason, finished_at = @now,
      claim_token = NULL, expires_at = NULL
    WHERE id = @id AND claim_token = @claimToken AND status = 'in_flight'`);
  // A lease that ran out means the drain holding it died mid-call: that call counts as an attempt, and
  // it may have reached the service (since its claim, the lease's start).
  // Rows claimed by this drain (`@liveTokens`, a JSON array) are never taken back from under it.
  const reclaimExpired = db.prepare<{ now: number; liveTokens: string; leaseMs: number }>(`
    UPDATE outbox SET status = 'pending', attempts = attempts + 1, available_at = @now,
      last_error = 'lease expired: the drain stopped before the call finished', claim_token = NULL, expires_at = NULL,
      outcome_unknown_since = coalesce(outcome_unknown_since, expires_at - @leaseMs)
    WHERE status = 'in_flight' AND expires_at <= @now
      AND claim_token NOT IN (SELECT value FROM json_each(@liveTokens))`);
  const nextForeignExpiry = db.prepare<{ liveTokens: string }, { at: number | null }>(`
    SELECT min(expires_at) AS at FROM outbox
    WHERE status = 'in_flight' AND claim_token NOT IN (SELECT value FROM json_each(@liveTokens))`);
  const nextFutureDue = db.prepare<{ now: number }, { at: number | null }>(
    "SELECT min(available_at) AS at FROM outbox WHERE status = 'pending' AND available_at > @now",
  );
  const pruneSent = db.prepare<{ cutoff: number }>(
    "DELETE FROM outbox WHERE status = 'sent' AND finished_at <= @cutoff",
  );

  const settleOne = (settlement: Settlement, now: number): boolean => {
    const { id, claimToken } = settlement.row;
    switch (settlement.kind) {
      case 'sent':
        if (FORGOTTEN_WHEN_SENT.has(settlement.row.operation)) return discard.run({ id, claimToken }).changes > 0;
        return (
          markSent.run({ id, claimToken, now, createdId: settlement.createdId ?? null, note: settlement.note ?? null })
            .changes > 0
        );
      case 'retry': {
        const { attempts, availableAt, summary: error } = settlement;
        const outcomeUnknownSince = settlement.outcomeUnknownSince ?? null;
        return reschedule.run({ id, claimToken, attempts, availableAt, error, outcomeUnknownSince }).changes > 0;
      }
      case 'skipped':
        return markSent.run({ id, claimToken, now, createdId: null, note: settlement.reason }).changes > 0;
      case 'discard':
        return discard.run({ id, claimToken }).changes > 0;
      case 'dead':
        return (
          markDead.run({ id, claimToken, attempts: settlement.attempts, reason: settlement.reason, now }).changes > 0
        );
      case 'release':
        return release.run({ id, claimToken }).changes > 0;
    }
  };

  const settleAndClaim = db.transaction(
    (settlements: readonly Settlement[], now: number, request: ClaimRequest | null): SettleAndClaimResult => {
      const written = settlements.map((settlement) => settleOne(settlement, now));
      if (request === null) return { written, rows: [], reclaimed: 0 };
      const { limit, claimToken, leaseMs } = request;
      const reclaimed = reclaimExpired.run({ now, liveTokens: JSON.stringify(request.liveTokens), leaseMs }).changes;
      const rows = selectDue.all({ now, limit });
      const expiresAt = now + leaseMs;
      for (const row of rows) markClaimed.run({ id: row.id, claimToken, expiresAt });
      return { written, rows: rows.map((row) => ({ ...row, claimToken })), reclaimed };
    },
  );

  return {
    /** Inserts unless the idempotency key is stored; joins the caller's transaction if one is open. */
    insert(row: NewRow): { id: number; inserted: boolean } {
      const created = insert.get(row);
      if (created) return { id: created.id, inserted: true };
      return { id: idByKey.get({ idempotencyKey: row.idempotencyKey })!.id, inserted: false };
    },
    /**
     * Claims one pending row when no earlier row of its ordering key is unfinished (for a caller
     * sending it at once); undefined otherwise. Joins the caller's transaction if one is open.
     */
    claimOne(id: number, claimToken: string, expiresAt: number): ClaimedRow | undefined {
      const row = selectIfFirst.get({ id });
      if (!row || markClaimed.run({ id, claimToken, expiresAt }).changes === 0) return undefined;
      return { ...row, claimToken };
    },
    /** Writes one settlement at once (outside the drain's batches); false when the claim was lost. */
    settleOne: (settlement: Settlement, now: number) => settleOne(settlement, now),
    /** Punishment ids delivered creations made: a lost answer is never matched to one of them. */
    createdIds: (): Set<string> => new Set(createdIds.all().map((row) => row.id)),
    /**
     * One IMMEDIATE transaction: writes the settlements (each checks its claim token; `written`
     * is false where the claim was lost), then, when asked, takes back rows of other drains whose
     * lease ran out and claims up to `limit` due rows under one token.
     */
    settleAndClaim: (settlements: readonly Settlement[], now: number, request: ClaimRequest | null) =>
      settleAndClaim.immediate(settlements, now, request),
    /** When the drainer should look again: the next retry due, or the next lease of another drain to run out. */
    nextWakeAt(now: number, liveTokens: readonly string[]): number | null {
      const due = nextFutureDue.get({ now })?.at ?? null;
      const expiry = nextForeignExpiry.get({ liveTokens: JSON.stringify(liveTokens) })?.at ?? null;
      if (due === null || expiry === null) return due ?? expiry;
      return Math.min(due, expiry);
    },
    pruneSent: (cutoff: number) => pruneSent.run({ cutoff }).changes,
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
