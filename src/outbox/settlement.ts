import type { EventEmitter } from 'eventemitter3';
import type { Logger } from '../ports/logger.js';
import type { OutboxEvents } from './events.js';
import type { ClaimedRow } from './store.js';
import type { OutboxOperation } from './types.js';

/** How a claimed row ends its turn; written in the drainer's next transaction, announced after commit. */
export type Settlement =
  | { kind: 'sent'; row: ClaimedRow; response: unknown }
  | {
      kind: 'retry';
      row: ClaimedRow;
      attempts: number;
      delayMs: number;
      availableAt: number;
      error: unknown;
      summary: string;
    }
  | { kind: 'dead'; row: ClaimedRow; attempts: number; reason: string }
  /** Claimed but never started (stopped or paused meanwhile): back to pending, nothing spent. */
  | { kind: 'release'; row: ClaimedRow };

/** Events and log lines of a settlement that was written. */
export function announce(settlement: Settlement, events: EventEmitter<OutboxEvents>, logger: Logger): void {
  const { row } = settlement;
  const operation = row.operation as OutboxOperation;
  switch (settlement.kind) {
    case 'sent':
      events.emit('outbox:sent', { id: row.id, operation, response: settlement.response });
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
      events.emit('outbox:dead', { id: row.id, operation: row.operation, reason: settlement.reason });
      return;
    case 'release':
      return;
  }
}
