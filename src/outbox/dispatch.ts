import type { CallOptions, ModerationApi } from '../api/moderation-api.js';
import type { OutboxCall } from './types.js';

/** Sends one stored call through the client method of its operation; resolves to the response. */
export function dispatchCall(client: ModerationApi, call: OutboxCall, options?: CallOptions): Promise<unknown> {
  const send = client[call.operation] as (payload: unknown, options?: CallOptions) => Promise<unknown>;
  return send(call.payload, options);
}
