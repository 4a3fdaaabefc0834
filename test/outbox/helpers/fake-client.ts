import { ApiError, type EndpointName } from '../../../src/api/errors.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';

export interface RecordedCall {
  operation: string;
  args: unknown[];
  at: number;
}

export type Reply = (call: RecordedCall, index: number) => unknown | Promise<unknown>;

const WRITES = [
  'acknowledgePunishment',
  'acknowledgeNotifications',
  'createPunishment',
  'createPunishmentDynamic',
  'addEvidence',
  'migrationProgress',
  'registerPlayer',
] as const;

/** A ModerationApi whose write methods record each call and answer with `reply` (a value, or throw). */
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
    previewPunishment: unused,
    recentPunishments: unused,
    punishmentTypes: unused,
    getTicket: unused,
    getPlayerTickets: unused,
    uploadMigration: unused,
    streamEndpoint: unused,
    ...Object.fromEntries(WRITES.map((name) => [name, record(name)])),
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

const endpoint: EndpointName = 'acknowledgePunishment';

export const apiErrors = {
  rateLimited: (retryAfterMs?: number) =>
    new ApiError({ kind: 'rate_limited', endpoint, status: 429, retryAfterMs, message: 'rate limited' }),
  http: (status: number, serviceMessage = 'nope') =>
    new ApiError({ kind: 'http', endpoint, status, serviceMessage, message: `HTTP ${status}` }),
  network: () => new ApiError({ kind: 'network', endpoint, message: 'connection reset' }),
  timeout: () => new ApiError({ kind: 'timeout', endpoint, message: 'no answer within 10000 ms' }),
  invalidRequest: () => new ApiError({ kind: 'invalid_request', endpoint, message: 'playerUuid: must be a UUID' }),
  invalidResponse: () =>
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
