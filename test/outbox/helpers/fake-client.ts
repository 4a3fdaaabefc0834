import { ApiError, type EndpointName } from '../../../src/api/errors.js';
import { ExtensionSupport } from '../../../src/api/extension-support.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import { RateLimitGate } from '../../../src/api/rate-limit-gate.js';

export interface RecordedCall {
  operation: string;
  args: unknown[];
  at: number;
}

export type Reply = (call: RecordedCall, index: number) => unknown | Promise<unknown>;

const RECORDED = [
  'acknowledgePunishment',
  'acknowledgeNotifications',
  'createPunishment',
  'createPunishmentDynamic',
  'addEvidence',
  'migrationProgress',
  'registerPlayer',
  'pardonPunishment',
  'createTicket',
  'replyToTicket',
  // Read when a creation whose answer was lost is looked for.
  'recentPunishments',
] as const;

/**
 * A ModerationApi whose write methods (and `recent`) record each call and answer with `reply`
 * (a value, or throw); with a real gate and extension record, as the outbox consults them.
 */
export function createFakeClient(now: () => number) {
  const calls: RecordedCall[] = [];
  const state: { reply: Reply } = { reply: () => ({ success: true, message: 'ok' }) };
  const record =
    (operation: string) =>
    async (...args: unknown[]): Promise<unknown> => {
      const call = { operation, args: args.filter((arg) => arg !== undefined), at: now() };
      calls.push(call);
      return state.reply(call, calls.length - 1);
    };
  const unused = () => {
    throw new Error('the outbox never reads');
  };
  const client = {
    gate: new RateLimitGate(),
    extensions: new ExtensionSupport({ reprobeAfterMs: 600_000 }),
    previewPunishment: unused,
    punishmentTypes: unused,
    getTicket: unused,
    getPlayerTickets: unused,
    uploadMigration: unused,
    streamEndpoint: unused,
    ...Object.fromEntries(RECORDED.map((name) => [name, record(name)])),
  } as unknown as ModerationApi;
  return {
    client,
    calls,
    /** Sets how every following call is answered. */
    answer(reply: Reply) {
      state.reply = reply;
    },
  };
}

export type FakeClient = ReturnType<typeof createFakeClient>;

const ack: EndpointName = 'acknowledgePunishment';

export const apiErrors = {
  rateLimited: (retryAfterMs?: number, endpoint: EndpointName = ack) =>
    new ApiError({ kind: 'rate_limited', endpoint, status: 429, retryAfterMs, message: 'rate limited' }),
  http: (status: number, serviceMessage = 'nope', endpoint: EndpointName = ack, retryAfterMs?: number) =>
    new ApiError({ kind: 'http', endpoint, status, serviceMessage, retryAfterMs, message: `HTTP ${status}` }),
  network: (endpoint: EndpointName = ack) => new ApiError({ kind: 'network', endpoint, message: 'connection reset' }),
  timeout: (endpoint: EndpointName = ack) =>
    new ApiError({ kind: 'timeout', endpoint, message: 'no answer within 10000 ms' }),
  invalidRequest: () => new ApiError({ kind: 'invalid_request', endpoint: ack, message: 'playerUuid: must be a UUID' }),
  invalidResponse: (endpoint: EndpointName = ack) =>
    new ApiError({ kind: 'invalid_response', endpoint, status: 200, message: 'message: expected string' }),
};

/** A promise the test resolves or rejects when it chooses. */
export function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
