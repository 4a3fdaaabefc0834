import type { EventEmitter } from 'eventemitter3';
import { isApiError } from '../api/errors.js';
import type { Logger } from '../ports/logger.js';
import type { Random } from '../ports/random.js';
import type { ClaimedRow } from './claimed-row.js';
import type { OutboxEvents } from './events.js';
import { decide, describeFailure } from './retry-policy.js';
import type { OutboxSettings } from './settings.js';
import type { OutboxOperation } from './types.js';

/** How a claimed row ends its turn; written in the drainer's next transaction, announced after commit. */
export type Settlement =
  /** Delivered; `createdId` is the punishment a creation made, `note` how it was settled when not plainly. */
  | { kind: 'sent'; row: ClaimedRow; response: unknown; createdId?: string; note?: string }
  | {
      kind: 'retry';
      row: ClaimedRow;
      attempts: number;
      delayMs: number;
      availableAt: number;
      error: unknown;
      summary: string;
      /** This attempt of a creation may have reached the service: the next one looks in `recent` first. */
      outcomeUnknownSince?: number;
    }
  | { kind: 'dead'; row: ClaimedRow; attempts: number; reason: string; status?: number; error?: unknown }
  /** An extension the service does not offer: finished without effect, never a dead letter. */
  | { kind: 'skipped'; row: ClaimedRow; reason: string }
  /** Claimed but never started (stopped or paused meanwhile): back to pending, nothing spent. */
  | { kind: 'release'; row: ClaimedRow }
  /** Sent at once for a waiting caller and refused: the caller is told, the row is removed. */
  | { kind: 'discard'; row: ClaimedRow };

/** Events and log lines of a settlement that was written. */
export function announce(settlement: Settlement, events: EventEmitter<OutboxEvents>, logger: Logger): void {
  const { row } = settlement;
  const operation = row.operation as OutboxOperation;
  switch (settlement.kind) {
    case 'sent':
      events.emit('outbox:sent', {
        id: row.id,
        operation,
        idempotencyKey: row.idempotencyKey,
        response: settlement.response,
      });
      return;
    case 'skipped':
      logger.info('outbox: the service does not offer this call; finished without sending', {
        id: row.id,
        operation: row.operation,
        reason: settlement.reason,
      });
      events.emit('outbox:skipped', { id: row.id, operation, reason: settlement.reason });
      return;
    case 'retry':
      events.emit('outbox:retry', {
        id: row.id,
        operation,
        attempt: settlement.attempts,
        delayMs: settlement.delayMs,
        error: settlement.error,
      });
      return;
    case 'dead':
      logger.warn('outbox: dead letter', { id: row.id, operation: row.operation, reason: settlement.reason });
      events.emit('outbox:dead', {
        id: row.id,
        operation: row.operation,
        reason: settlement.reason,
        ...(settlement.status === undefined ? {} : { status: settlement.status }),
      });
      return;
    case 'release':
    case 'discard':
      return;
  }
}

/** A failed call as a settlement, plus what the drain as a whole must do about it. */
export interface FailureOutcome {
  settlement: Settlement;
  /** A 429 or a rejected key: nothing may start before this epoch ms. */
  pauseUntil?: number;
}

export function settleFailure(
  row: ClaimedRow,
  error: unknown,
  context: { now: number; settings: OutboxSettings; random: Random; logger: Logger },
): FailureOutcome {
  const { now, settings, random, logger } = context;
  const decision = decide({ error, attempts: row.attempts, ageMs: now - row.ageFrom, settings, random });
  const summary = describeFailure(error);
  switch (decision.action) {
    case 'sent':
      logger.warn('outbox: service accepted a call but its answer did not match the contract', {
        id: row.id,
        operation: row.operation,
        error: summary,
      });
      return { settlement: { kind: 'sent', row, response: undefined, note: `answer not understood: ${summary}` } };
    case 'skipped':
      return { settlement: { kind: 'skipped', row, reason: `not offered by the service: ${summary}` } };
    case 'dead':
      return {
        settlement: {
          kind: 'dead',
          row,
          attempts: row.attempts + 1,
          reason: decision.reason,
          status: httpStatus(error),
          error,
        },
      };
    case 'retry': {
      const availableAt = now + decision.delayMs;
      const { attempts, delayMs } = decision;
      return {
        settlement: { kind: 'retry', row, attempts, delayMs, availableAt, error, summary },
        pauseUntil: decision.pausesDrain ? availableAt : undefined,
      };
    }
  }
}

/** The HTTP status the service answered, when the failure is one. */
function httpStatus(error: unknown): number | undefined {
  return isApiError(error) && error.kind === 'http' ? error.status : undefined;
}
