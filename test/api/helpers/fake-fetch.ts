import type { FetchFunction } from '../../../src/api/options.js';

/** One request as the fake fetch saw it. */
export interface RecordedCall {
  url: URL;
  method: string;
  headers: Headers;
  body: string | FormData | undefined;
  redirect: RequestInit['redirect'];
  signal: AbortSignal;
}

export type Responder = (call: RecordedCall) => Response | Promise<Response>;

/** A fetch that records every call and answers with `responder`. */
export function fakeFetch(responder: Responder): { fetch: FetchFunction; calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fetch: FetchFunction = async (input, init) => {
    const call: RecordedCall = {
      url: new URL(input),
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: init.body as string | FormData | undefined,
      redirect: init.redirect,
      signal: init.signal as AbortSignal,
    };
    calls.push(call);
    return responder(call);
  };
  return { fetch, calls };
}

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
  });
}

/** An error body as the reference service writes it (docs/contract/service-semantics.md). */
export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse({ status, success: false, error: 'Error', message }, { status, headers });
}

/** Never answers on its own; rejects with the abort reason once the request's signal aborts. */
export function untilAborted(call: RecordedCall): Promise<Response> {
  return new Promise((_, reject) => {
    call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true });
  });
}

export const unreachable: Responder = () => {
  throw new Error('fetch must not be called');
};
