import type { TimerHandle, Timers } from '../ports/timers.js';
import { ApiError } from './errors.js';
import type { FetchFunction } from './options.js';
import type { PreparedRequest } from './request.js';

/** A complete HTTP answer: the body is read before the call's time limit is released. */
export interface RawReply {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
}

export interface Transport {
  fetch: FetchFunction;
  timers: Timers;
  timeoutMs: number;
  /** The caller's own signal; aborting it ends the call as a `network` error. */
  signal?: AbortSignal;
  /** Told the status and headers as soon as they arrive, before the body is read. */
  onHeaders?: (status: number, headers: Headers) => void;
}

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9` from undici's error and the cause beneath it. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause === undefined || cause === error.message ? error.message : `${error.message}: ${cause}`;
}

/** Settles with `work`, or rejects as soon as `signal` aborts even if `work` ignores it. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => {}); // the loser of the race must not surface as an unhandled rejection
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function exchange(request: PreparedRequest, transport: Transport, signal: AbortSignal): Promise<RawReply> {
  const response = await transport.fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal,
    // A redirect would hand the X-API-Key header to whatever host it names. 'error' also stops
    // undici from cloning the request, which keeps a whole upload body in memory (undici#4058).
    redirect: 'error',
  });
  transport.onHeaders?.(response.status, response.headers);
  const text = await response.text();
  return { status: response.status, statusText: response.statusText, headers: response.headers, text };
}

/**
 * Sends one request and reads the whole answer under a time limit armed on the injected timers.
 * Throws `timeout` when the limit fires, `network` when fetch fails or the caller aborts;
 * any HTTP status is returned, not thrown.
 */
export async function sendRequest(request: PreparedRequest, transport: Transport): Promise<RawReply> {
  const { endpoint } = request;
  const controller = new AbortController();
  const callerSignal = transport.signal;
  let timedOut = false;
  const onCallerAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) {
    throw new ApiError({ kind: 'network', endpoint, message: `${endpoint}: aborted by the caller before sending` });
  }
  callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
  const timer: TimerHandle = transport.timers.setTimeout(() => {
    timedOut = true;
    controller.abort(new Error(`no answer within ${transport.timeoutMs} ms`));
  }, transport.timeoutMs);
  try {
    return await untilAborted(exchange(request, transport, controller.signal), controller.signal);
  } catch (error) {
    if (timedOut) {
      throw new ApiError({
        kind: 'timeout',
        endpoint,
        message: `${endpoint}: no answer within ${transport.timeoutMs} ms`,
      });
    }
    if (callerSignal?.aborted) {
      throw new ApiError({ kind: 'network', endpoint, message: `${endpoint}: aborted by the caller`, cause: error });
    }
    throw new ApiError({
      kind: 'network',
      endpoint,
      message: `${endpoint}: network error: ${describeFailure(error)}`,
      cause: error,
    });
  } finally {
    transport.timers.clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}
