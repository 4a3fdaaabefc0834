import { ENDPOINTS, type EndpointSpec, type OperationName, STREAM_PATH } from '../contract/endpoints.js';
import { ApiError, isApiError } from './errors.js';
import { type RawReply, sendRequest } from './http.js';
import type { CallOptions, ModerationApi, ModerationCalls } from './moderation-api.js';
import { type ModerationClientOptions, type ResolvedClientOptions, resolveClientOptions } from './options.js';
import { passGate, recordAnswer, recordFailure } from './pass-gate.js';
import { RateLimitArrival } from './rate-limit-arrival.js';
import { redactApiError, redactCause } from './redact.js';
import { prepareRequest } from './request.js';
import { interpretReply } from './response.js';

function callTimeoutMs(spec: EndpointSpec, options: CallOptions | undefined, fallbackMs: number): number {
  const timeoutMs = options?.timeoutMs ?? fallbackMs;
  if (typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0) return timeoutMs;
  const issues = [{ path: 'options.timeoutMs', message: `must be a number of milliseconds > 0, got ${timeoutMs}` }];
  throw new ApiError({
    kind: 'invalid_request',
    endpoint: spec.name,
    message: `${spec.name}: invalid request, not sent: options.timeoutMs: ${issues[0]!.message}`,
    issues,
  });
}

/** What ends the wait for the budget: the caller's signal, and the one that only withdraws a waiting call. */
function waitSignalOf(options: CallOptions | undefined): AbortSignal | undefined {
  const signals = [options?.signal, options?.waitSignal].filter((signal) => signal !== undefined);
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

async function call(config: ResolvedClientOptions, spec: EndpointSpec, payload: unknown, options?: CallOptions) {
  try {
    const timeoutMs = callTimeoutMs(spec, options, config.timeoutMs);
    const request = await prepareRequest(spec, payload, config, options?.idempotencyKey, options?.checkedBody);
    await passGate(spec.name, config, options?.lane, waitSignalOf(options));
    const arrival = new RateLimitArrival(spec, config, options?.lane ?? 'shared', timeoutMs);
    const progress = options?.progress;
    progress?.sent?.();
    let reply: RawReply;
    try {
      reply = await sendRequest(request, {
        fetch: config.fetch,
        timers: config.timers,
        timeoutMs,
        signal: options?.signal,
        onHeaders: progress?.answerArriving
          ? (status, headers) => {
              arrival.onHeaders(status, headers);
              progress.answerArriving?.();
            }
          : arrival.onHeaders,
      });
    } catch (error) {
      arrival.bodyLost();
      throw error;
    }
    const now = config.clock.now();
    let result: unknown;
    try {
      result = interpretReply(spec, reply, now);
    } catch (error) {
      throw recordFailure(spec, error, now, config, options?.lane);
    } finally {
      arrival.done();
    }
    recordAnswer(spec, config);
    return result;
  } catch (error) {
    throw isApiError(error) ? redactApiError(error, config.apiKey) : redactCause(error, config.apiKey);
  }
}

/**
 * A client for every operation of the endpoint table. Requests are validated before they are
 * sent, responses after they arrive; every request passes the rate-limit gate; every failure is
 * an {@link ApiError} without the key. Throws `ClientOptionsError` at once for a bad option.
 */
export function createModerationClient(options: ModerationClientOptions): ModerationApi {
  const config = resolveClientOptions(options);
  const calls = Object.fromEntries(
    (Object.keys(ENDPOINTS) as OperationName[]).map((name) => [
      name,
      (payload: unknown, callOptions?: CallOptions) => call(config, ENDPOINTS[name], payload, callOptions),
    ]),
  ) as unknown as ModerationCalls;
  return {
    ...calls,
    gate: config.gate,
    extensions: config.extensions,
    streamEndpoint: () => ({
      url: `${config.baseUrl.replace(/^http/, 'ws')}/v1/${config.platform}/${STREAM_PATH}`,
      headers: { 'X-API-Key': config.apiKey },
    }),
  };
}
