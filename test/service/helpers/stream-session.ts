import WebSocket from 'ws';
import { type StreamFrame, streamFrame } from '../../../src/contract/schemas.js';

export interface StreamSession {
  ws: WebSocket;
  opened: Promise<void>;
  /** The next frame; fails after `timeoutMs` without one. */
  next(timeoutMs?: number): Promise<StreamFrame>;
  /** Frames up to and including the first `caught-up` (protocol 2). */
  untilCaughtUp(timeoutMs?: number): Promise<StreamFrame[]>;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
}

/**
 * Opens `/v1/minecraft/stream{query}` with the key and hands out parsed frames in order; bounded waits
 * only. `from` picks the local address (any 127.x.y.z), `headers` adds request headers.
 */
export function openStreamSession(
  serviceUrl: string,
  apiKey: string,
  query = '',
  options: { from?: string; headers?: Record<string, string> } = {},
): StreamSession {
  const ws = new WebSocket(`${serviceUrl.replace('http', 'ws')}/v1/minecraft/stream${query}`, {
    headers: { ...options.headers, 'x-api-key': apiKey },
    ...(options.from === undefined ? {} : { localAddress: options.from }),
  });
  const frames: StreamFrame[] = [];
  let wake: (() => void) | undefined;
  ws.on('message', (data) => {
    frames.push(streamFrame.parse(JSON.parse(String(data))));
    wake?.();
  });
  ws.on('error', () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      wake?.();
    }),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)));
  });
  const next = async (timeoutMs = 5000): Promise<StreamFrame> => {
    const deadline = Date.now() + timeoutMs;
    while (frames.length === 0) {
      if (Date.now() > deadline) throw new Error(`no frame within ${timeoutMs} ms`);
      if (ws.readyState === WebSocket.CLOSED) throw new Error('stream closed');
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    return frames.shift()!;
  };
  const untilCaughtUp = async (timeoutMs = 10_000) => {
    const seen: StreamFrame[] = [];
    for (;;) {
      const frame = await next(timeoutMs);
      seen.push(frame);
      if (frame.type === 'caught-up') return seen;
    }
  };
  return { ws, opened, next, untilCaughtUp, closed };
}

/** The status and JSON body of a refused upgrade. */
export function refusedUpgrade(
  serviceUrl: string,
  apiKey: string,
): Promise<{ status: number; body: Record<string, unknown>; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${serviceUrl.replace('http', 'ws')}/v1/minecraft/stream?protocol=2`, {
      headers: { 'x-api-key': apiKey },
    });
    ws.once('unexpected-response', (_request, response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      response.on('end', () => {
        ws.terminate();
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), retryAfter: retryAfter ?? undefined });
      });
    });
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('upgrade was accepted'));
    });
    ws.once('error', () => {});
  });
}
