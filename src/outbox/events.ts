import type { OutboxOperation } from './types.js';

/** Typed events of the outbox (eventemitter3), one object payload each. */
export interface OutboxEvents {
  /** The service answered 2xx. */
  'outbox:sent': (event: { id: number; operation: OutboxOperation; response: unknown }) => void;
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
  /** A 429: nothing is sent until `untilMs` (epoch ms). */
  'outbox:paused': (event: { untilMs: number; reason: string }) => void;
  /** The service answered 401: the API key is wrong. Emitted once per outbox. */
  'outbox:auth-failed': (event: { id: number; operation: string }) => void;
}
