import type { z } from 'zod';
import { describeIssues, toIssues } from '../api/errors.js';
import { ENDPOINTS, payloadSchema, QUEUEABLE_OPERATIONS } from '../contract/endpoints.js';
import { errorMessage } from '../errors/error-message.js';
import { STORED_SHAPE_CHECKS } from './stored-shapes.js';
import type { OutboxCall, OutboxOperation } from './types.js';

/** The payload schema of each operation, derived from the endpoint table; also re-validates rows read back. */
export const PAYLOAD_SCHEMAS = Object.fromEntries(
  QUEUEABLE_OPERATIONS.map((operation) => [operation, payloadSchema(ENDPOINTS[operation])]),
) as Record<OutboxOperation, z.ZodType>;

export const OUTBOX_OPERATIONS: readonly OutboxOperation[] = QUEUEABLE_OPERATIONS;

export function isOutboxOperation(value: string): value is OutboxOperation {
  return Object.hasOwn(PAYLOAD_SCHEMAS, value);
}

export type ParsedCall =
  | {
      ok: true;
      call: OutboxCall;
      /** The row's JSON, when it is sent as the body as stored (only shape-checked, see `STORED_SHAPE_CHECKS`). */
      checkedBody?: string;
    }
  | { ok: false; problem: string };

/** Checks an operation name and payload (a value, not JSON); the problem names what was wrong. */
export function parseCall(operation: string, payload: unknown): ParsedCall {
  if (!isOutboxOperation(operation)) {
    return { ok: false, problem: `unknown operation "${operation}" (expected one of ${OUTBOX_OPERATIONS.join(', ')})` };
  }
  const result = PAYLOAD_SCHEMAS[operation].safeParse(payload);
  if (!result.success) return { ok: false, problem: `${operation} payload: ${describeIssues(toIssues(result.error))}` };
  return { ok: true, call: { operation, payload: result.data } as OutboxCall };
}

/**
 * Takes a payload its caller checked against the contract (`payloadChecked`): only the operation's
 * shape is checked, and only operations with a stored-shape check may be given this way.
 */
export function acceptChecked(operation: string, payload: unknown): ParsedCall {
  if (!isOutboxOperation(operation)) return parseCall(operation, payload);
  const shape = STORED_SHAPE_CHECKS[operation];
  if (shape === undefined) {
    return { ok: false, problem: `${operation} payload: only checked by the outbox (payloadChecked is not offered)` };
  }
  const problem = shape(payload);
  if (problem !== undefined) return { ok: false, problem: `${operation} payload: ${problem}` };
  return { ok: true, call: { operation, payload } as OutboxCall };
}

/** Reads a row's stored JSON back into a call; never throws. */
export function parseStoredCall(operation: string, payloadJson: string): ParsedCall {
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch (error) {
    return {
      ok: false,
      problem: `stored payload is not JSON (${errorMessage(error)})`,
    };
  }
  const shape = isOutboxOperation(operation) ? STORED_SHAPE_CHECKS[operation] : undefined;
  if (shape !== undefined) {
    const problem = shape(payload);
    if (problem !== undefined)
      return { ok: false, problem: `stored payload no longer parses: ${operation} payload: ${problem}` };
    return { ok: true, call: { operation, payload } as OutboxCall, checkedBody: payloadJson };
  }
  const parsed = parseCall(operation, payload);
  return parsed.ok ? parsed : { ok: false, problem: `stored payload no longer parses: ${parsed.problem}` };
}
