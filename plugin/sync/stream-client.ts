import WebSocket from 'ws';
import { type Punishment, streamFrame } from '../../src/api/schemas.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Random } from '../../src/ports/random.js';
import type { TimerHandle, Timers } from '../../src/ports/timers.js';
import type { StreamState } from '../commands/deps.js';

/** The part of a `ws` WebSocket the stream client uses (so tests can pass a fake). */
export interface StreamSocket {
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: WebSocket.RawData) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'unexpected-response', listener: (request: unknown, response: { statusCode?: number }) => void): unknown;
  terminate(): void;
}

export interface StreamClientOptions {
  /** URL and headers (with the key: never logged). */
  endpoint: () => { url: string; headers: Record<string, string> };
  onSnapshot: (punishments: Punishment[]) => void;
  onPunishment: (punishment: Punishment) => void;
  onStateChange: (state: StreamState) => void;
  timers: Timers;
  random: Random;
  logger: Logger;
  /** First reconnection ceiling (full jitter). @default 500 */
  minDelayMs?: number;
  /** @default 30000 */
  maxDelayMs?: number;
  /** @default opens a `ws` WebSocket */
  connect?: (url: string, headers: Record<string, string>) => StreamSocket;
}

export interface StreamClient {
  start(): void;
  stop(): void;
  readonly state: StreamState;
}

/**
 * The service's push stream: applies the snapshot and each pushed punishment as it arrives,
 * reconnects with capped exponential backoff and full jitter, and gives up for good when the
 * service answers the upgrade with 404 (it has no stream: polling alone keeps up).
 */
export function createStreamClient(options: StreamClientOptions): StreamClient {
  const minDelayMs = options.minDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const connect =
    options.connect ?? ((url, headers) => new WebSocket(url, { headers, handshakeTimeout: 10_000 }) as StreamSocket);
  let state: StreamState = 'disconnected';
  let socket: StreamSocket | undefined;
  let retryTimer: TimerHandle | undefined;
  let failures = 0;
  let stopped = true;

  const setState = (next: StreamState) => {
    if (next === state) return;
    state = next;
    options.onStateChange(next);
  };

  const scheduleReconnect = () => {
    if (stopped || state === 'unsupported') return;
    setState('disconnected');
    const ceiling = Math.min(maxDelayMs, minDelayMs * 2 ** Math.min(failures, 30));
    failures += 1;
    retryTimer = options.timers.setTimeout(open, Math.floor(options.random() * ceiling));
  };

  const handleMessage = (data: WebSocket.RawData) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString());
    } catch {
      options.logger.warn('stream frame is not JSON: ignored');
      return;
    }
    const frame = streamFrame.safeParse(parsed);
    if (!frame.success) {
      options.logger.warn('stream frame does not match the contract: ignored', {
        issue: frame.error.issues[0]?.message,
      });
      return;
    }
    if (frame.data.type === 'hello') {
      failures = 0;
      setState('connected');
    } else if (frame.data.type === 'snapshot') {
      options.onSnapshot(frame.data.punishments);
    } else {
      options.onPunishment(frame.data.punishment);
    }
  };

  function open(): void {
    retryTimer = undefined;
    if (stopped) return;
    setState('connecting');
    const { url, headers } = options.endpoint();
    let current: StreamSocket;
    try {
      current = connect(url, headers);
    } catch (error) {
      options.logger.warn('stream could not be opened', { error: (error as Error).message });
      scheduleReconnect();
      return;
    }
    socket = current;
    current.on('message', (data) => {
      if (socket === current) handleMessage(data);
    });
    current.on('unexpected-response', (_request, response) => {
      if (socket !== current) return;
      socket = undefined;
      current.terminate();
      if (response.statusCode === 404) {
        options.logger.info('the service offers no stream: polling only');
        setState('unsupported');
        return;
      }
      options.logger.warn('stream upgrade refused', { status: response.statusCode });
      scheduleReconnect();
    });
    current.on('error', (error) => {
      if (socket === current) options.logger.debug('stream error', { error: error.message });
    });
    current.on('close', () => {
      if (socket !== current) return;
      socket = undefined;
      scheduleReconnect();
    });
  }

  return {
    get state() {
      return state;
    },
    start() {
      if (!stopped) return;
      stopped = false;
      open();
    },
    stop() {
      stopped = true;
      if (retryTimer !== undefined) options.timers.clearTimeout(retryTimer);
      retryTimer = undefined;
      const current = socket;
      socket = undefined;
      current?.terminate();
      if (state !== 'unsupported') setState('disconnected');
    },
  };
}
