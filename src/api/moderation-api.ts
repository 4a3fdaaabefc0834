import type { OperationName, Payload, Result } from '../contract/endpoints.js';
import type { ExtensionSupport } from './extension-support.js';
import type { RateLimitGate, RequestLane } from './rate-limit-gate.js';

export interface CallOptions {
  /** Aborts the call (the error is then of kind `timeout` if the time limit fired, else `network`). */
  signal?: AbortSignal;
  /** Overrides the client's per-call time limit. */
  timeoutMs?: number;
  /**
   * Sent as the `Idempotency-Key` header on calls that create a punishment, a ticket or a reply,
   * so a service that honours it answers a repeated creation with the original. Printable ASCII without `"` or `\`.
   */
  idempotencyKey?: string;
  /**
   * Withdraws the call while it still waits for the request budget (it is then never sent, and
   * spends nothing); once sent it runs to its end. @default none
   */
  waitSignal?: AbortSignal;
  /** Whose call this is for the gate: `player` for calls any player can trigger. @default 'shared' */
  lane?: RequestLane;
  /**
   * The payload as JSON, already checked against the contract where it was built (an outbox row of
   * the chat log): sent as the body as is, not validated or serialised again. Only for an operation
   * whose payload is its whole body.
   */
  checkedBody?: string;
  /** Told when the call leaves the gate and is sent, and again when the answer's status and headers arrive. */
  progress?: CallProgress;
}

/** Where a call has got to; a caller waiting on a deadline tells a slow service from a call never sent. */
export interface CallProgress {
  sent?: () => void;
  answerArriving?: () => void;
}

/** One method per operation of the endpoint table: it takes the operation's payload (see `PayloadOf`). */
export type ModerationCalls = {
  readonly [Name in OperationName]: (payload: Payload<Name>, options?: CallOptions) => Promise<Result<Name>>;
};

/**
 * A client of the moderation API: one method per endpoint of the contract and per extension of
 * the reference service, all derived from `ENDPOINTS`. Every method validates its payload before
 * sending and the answer after; every failure is thrown as an `ApiError`. Every request passes
 * the client's rate-limit gate.
 */
export interface ModerationApi extends ModerationCalls {
  /** The door every request passes (shared by every caller of this client). */
  readonly gate: RateLimitGate;
  /** Which extensions the service answered or refused with 404. */
  readonly extensions: ExtensionSupport;
  /** Extension: where the WebSocket stream lives and the headers to open it with (includes the key: never log them). */
  streamEndpoint(): { url: string; headers: Record<string, string> };
}
