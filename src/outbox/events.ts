import type { OutboxOperation } from './call.js';

/** Typed events of the outbox (eventemitter3), one object payload each. */
export interface OutboxEvents {
  /**
   * The service answered 2xx (or, for a creation whose answer was lost, the punishment was found in
   * `recent`). `idempotencyKey` is the one the row was enqueued with.
   */
  'outbox:sent': (event: { id: number; operation: OutboxOperation; idempotencyKey: string; response: unknown }) => void;
  /** The row calls an extension the service does not offer (404): finished without effect. */
  'outbox:skipped': (event: { id: number; operation: OutboxOperation; reason: string }) => void;
  /** A transient failure or 429: the row is due again in `delayMs`. `attempt` counts spent attempts. */
  'outbox:retry': (event: {
    id: number;
    operation: OutboxOperation;
    attempt: number;
    delayMs: number;
    error: unknown;
  }) => void;
  /**
   * The row will not be sent again unless requeued with `retryDead`. `status` is the HTTP status
   * the service answered when that is why (e.g. 404 for an endpoint it does not offer).
   */
  'outbox:dead': (event: { id: number; operation: string; reason: string; status?: number }) => void;
  /** A 429 or a rejected key: nothing is sent until `untilMs` (epoch ms). */
  'outbox:paused': (event: { untilMs: number; reason: string }) => void;
}
