import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { parseResponse } from './raw-http.js';

/** What a held connection saw once the service closed it. */
export interface HeldOutcome {
  /** Everything received, as latin1 text. */
  raw: string;
  /** The status of the first response received, undefined when none came. */
  status: number | undefined;
  /** The `message` of a JSON error body, when the first response had one. */
  message: string | undefined;
  /** `performance.now()` when the connection was made and when it closed (undefined while open). */
  connectedAtMs: number;
  closedAtMs: number | undefined;
}

export interface HeldSocket {
  socket: Socket;
  /** Resolves once connected. */
  connected: Promise<void>;
  /** Resolves when the first complete response has arrived. */
  answered(timeoutMs: number): Promise<HeldOutcome>;
  /** Resolves once `text` has arrived (an interim `100 Continue`, say). */
  received(text: string, timeoutMs: number): Promise<HeldOutcome>;
  /** Resolves when the service closed the connection; rejects after `timeoutMs` with it still open. */
  closed(timeoutMs: number): Promise<HeldOutcome>;
  /** Ends the connection from this side. */
  destroy(): void;
}

function outcomeOf(
  raw: string,
  ended: boolean,
  times: { connectedAtMs: number; closedAtMs: number | undefined },
): HeldOutcome {
  const response = parseResponse(raw, ended);
  let message: string | undefined;
  try {
    message = response ? (JSON.parse(response.body) as { message?: string }).message : undefined;
  } catch {
    message = undefined;
  }
  return { raw, status: response?.status, message, ...times };
}

/**
 * A raw connection to 127.0.0.1:`port` from `localAddress` that sends `bytes` (possibly an
 * unfinished request) and then holds on, as a slow or hostile client does.
 */
export function holdSocket(port: number, bytes: string | Buffer = '', localAddress = '127.0.0.1'): HeldSocket {
  const socket = connect({ host: '127.0.0.1', port, localAddress });
  let raw = '';
  let isClosed = false;
  const times: { connectedAtMs: number; closedAtMs: number | undefined } = { connectedAtMs: 0, closedAtMs: undefined };
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  socket.on('data', (chunk) => {
    raw += chunk.toString('latin1');
    wake();
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    isClosed = true;
    times.closedAtMs = performance.now();
    wake();
  });
  const connected = new Promise<void>((resolve) =>
    socket.once('connect', () => {
      times.connectedAtMs = performance.now();
      if (bytes.length > 0) socket.write(bytes);
      resolve();
    }),
  );
  const until = (isDone: () => boolean, timeoutMs: number, what: string) =>
    new Promise<HeldOutcome>((resolve, reject) => {
      const check = () => {
        if (!isDone()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(outcomeOf(raw, isClosed, times));
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${what} within ${timeoutMs} ms (received ${JSON.stringify(raw.slice(0, 200))})`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    socket,
    connected,
    answered: (timeoutMs) => until(() => parseResponse(raw, isClosed) !== undefined, timeoutMs, 'no answer'),
    received: (text, timeoutMs) => until(() => raw.includes(text), timeoutMs, `no ${JSON.stringify(text)}`),
    closed: (timeoutMs) => until(() => isClosed, timeoutMs, 'still open'),
    destroy: () => socket.destroy(),
  };
}
