import WebSocket from 'ws';
import type { ExtensionSupport } from '../../src/api/extension-support.js';
import type { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import { type Punishment, STREAM_PROTOCOL_RESUMING, streamFrame } from '../../src/contract/schemas.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Random } from '../../src/ports/random.js';
import type { TimerHandle, Timers } from '../../src/ports/timers.js';
import { fullJitterDelayMs } from '../../src/retry/backoff.js';
import { parseRetryAfterMs } from '../../src/retry/retry-after.js';
import { memoryStreamPositionStore, type StreamPositionStore } from './stream-position.js';
import type { StreamState } from './sync-status.js';

/** The answer to a refused upgrade, as `ws` hands it over (an `http.IncomingMessage`). */
export interface UpgradeRefusal {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
  on?(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on?(event: 'end', listener: () => void): unknown;
  on?(event: 'close', listener: () => void): unknown;
}

/** The part of a `ws` WebSocket the stream client uses (so tests can pass a fake). */
export interface StreamSocket {
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: WebSocket.RawData) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'unexpected-response', listener: (request: unknown, response: UpgradeRefusal) => void): unknown;
  terminate(): void;
}

export interface StreamClientOptions {
  /** URL and headers (with the key: never logged). */
  endpoint: () => { url: string; headers: Record<string, string> };
  /**
   * A page of the snapshot of every active punishment; `complete` on its last page. A service of
   * protocol 1 sends the whole snapshot as one page.
   */
  onSnapshotPage: (punishments: Punishment[], complete: boolean) => void;
  onPunishment: (punishment: Punishment) => void;
  /** Protocol 2: every change up to the service's newest has been applied (after a resume or a snapshot). */
  onCaughtUp?: () => void;
  /**
   * Where the last applied sequence is kept; it is sent on every connection so the service sends
   * only what changed since. @default kept in memory
   */
  position?: StreamPositionStore;
  onStateChange: (state: StreamState) => void;
  timers: Timers;
  random: Random;
  clock: Clock;
  logger: Logger;
  /** The client's gate: no connection is opened while it is closed, and a 429 or 401 to the upgrade closes it. */
  gate: RateLimitGate;
  /** The client's extension record: a 404 to the upgrade is remembered there and asked again later. */
  extensions: ExtensionSupport;
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

/** Bytes of a refused upgrade's body read for a `retryAfterSeconds`. */
const REFUSAL_BODY_LIMIT = 4096;
/** How long a 429's refusal body may take before the gate stops waiting for it (the handshake's own limit). */
const REFUSAL_READ_LIMIT_MS = 10_000;

/**
 * The service's push stream: applies the snapshot and each pushed punishment as it arrives and
 * reconnects with the shared backoff (full jitter, capped). It asks for protocol 2 and keeps the
 * sequence of every change it applied, so a reconnection gets only what changed since; a service
 * of protocol 1 answers as before (a full snapshot each time). Every connection passes the client's
 * rate-limit gate: none opens while it is closed, and a 429 or 401 to the upgrade closes it for
 * every caller. A 404 means the service has no stream: polling alone keeps up, and the stream is
 * asked again after the extension record's wait.
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
  const position = options.position ?? memoryStreamPositionStore();
  // The epoch of the log the current connection speaks of (protocol 2), set by its hello.
  let epoch: string | undefined;

  const setState = (next: StreamState) => {
    if (next === state) return;
    state = next;
    options.onStateChange(next);
  };

  const openAt = (atMs: number) => {
    retryTimer = options.timers.setTimeout(open, Math.max(0, atMs - options.clock.now()));
  };

  const scheduleReconnect = () => {
    if (stopped) return;
    setState('disconnected');
    failures += 1;
    const backoffMs = fullJitterDelayMs(failures, { baseDelayMs: minDelayMs, maxDelayMs }, options.random);
    // Never before the gate opens, whichever caller closed it.
    const closure = options.gate.closure(options.clock.now());
    openAt(Math.max(options.clock.now() + backoffMs, closure?.untilMs ?? 0));
  };

  /** `readHold`: lifted once a 429's wait is recorded, before the reconnection is timed by the gate. */
  const refused = (response: UpgradeRefusal, body: string, readHold?: () => void) => {
    const now = options.clock.now();
    const status = response.statusCode;
    if (status === 404) {
      options.extensions.markMissing('stream', now);
      const retryAt = options.extensions.state('stream');
      options.logger.info('the service offers no stream: polling only, the stream is asked again later');
      setState('unsupported');
      if (!stopped && retryAt.state === 'missing') openAt(retryAt.retryAt);
      return;
    }
    if (status === 429) {
      options.gate.rateLimited('stream', now, parseRetryAfterMs(refusalHeaders(response), parseBody(body), now));
      readHold?.();
    } else if (status === 401) {
      options.gate.keyRejected('stream', now);
    } else {
      // The service's message says why (a 409 names the cap of connections per key); never the key.
      const message = (parseBody(body) as { message?: unknown } | undefined)?.message;
      options.logger.warn('stream upgrade refused', {
        status,
        ...(typeof message === 'string' ? { message: message.slice(0, 300) } : {}),
      });
    }
    scheduleReconnect();
  };

  /** Closes the gate as soon as a 429 to the upgrade arrives: for the wait its headers give, or until its body is read. */
  const holdForRefusal = (response: UpgradeRefusal): (() => void) | undefined => {
    const now = options.clock.now();
    const retryAfterMs = parseRetryAfterMs(refusalHeaders(response), undefined, now);
    if (retryAfterMs !== undefined) {
      options.gate.rateLimited('stream', now, retryAfterMs);
      return undefined;
    }
    return options.gate.rateLimitArriving('stream', 'shared', now + REFUSAL_READ_LIMIT_MS);
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
    const received = frame.data;
    if (received.type === 'hello') {
      failures = 0;
      epoch = received.protocol >= STREAM_PROTOCOL_RESUMING ? received.epoch : undefined;
      options.gate.keyAccepted();
      options.extensions.markOffered('stream');
      setState('connected');
    } else if (received.type === 'snapshot') {
      const complete = received.page === undefined || received.last === true;
      options.onSnapshotPage(received.punishments, complete);
      // A snapshot replaces whatever position was kept: it is the state at its sequence.
      if (complete) savePosition(received.sequence);
    } else if (received.type === 'punishment') {
      options.onPunishment(received.punishment);
      savePosition(received.sequence);
    } else {
      savePosition(received.sequence);
      options.onCaughtUp?.();
    }
  };

  const savePosition = (sequence: number | undefined) => {
    if (epoch === undefined || sequence === undefined) return;
    try {
      position.save({ epoch, sequence });
    } catch (error) {
      options.logger.warn('could not keep the stream position', { error: (error as Error).message });
    }
  };

  // Protocol 2 with the position to resume from; a service of protocol 1 ignores the query.
  const withResume = (url: string) => {
    const target = new URL(url);
    target.searchParams.set('protocol', String(STREAM_PROTOCOL_RESUMING));
    const kept = loadPosition();
    if (kept) {
      target.searchParams.set('epoch', kept.epoch);
      target.searchParams.set('after', String(kept.sequence));
    }
    return target.toString();
  };

  const loadPosition = () => {
    try {
      return position.load();
    } catch (error) {
      options.logger.warn('could not read the stream position: asking for a snapshot', {
        error: (error as Error).message,
      });
      return undefined;
    }
  };

  function open(): void {
    retryTimer = undefined;
    if (stopped) return;
    const now = options.clock.now();
    const missing = options.extensions.state('stream');
    if (missing.state === 'missing' && options.extensions.isMissing('stream', now)) {
      setState('unsupported');
      openAt(missing.retryAt);
      return;
    }
    const closure = options.gate.closure(now);
    if (closure) {
      setState('disconnected');
      openAt(closure.untilMs);
      return;
    }
    const budgetWaitMs = options.gate.reserve(now);
    if (budgetWaitMs > 0) {
      openAt(now + budgetWaitMs);
      return;
    }
    setState('connecting');
    const { url, headers } = options.endpoint();
    epoch = undefined;
    let current: StreamSocket;
    try {
      current = connect(withResume(url), headers);
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
      if ((response.statusCode !== 429 && response.statusCode !== 409) || !response.on) {
        current.terminate();
        refused(response, '');
        return;
      }
      // Only a 429's body (its retryAfterSeconds) and a 409's (why) matter: read a little of it, then close.
      // Until a 429's body is read (or its wait is in the headers) nothing else leaves.
      const heldUntilRead = response.statusCode === 429 ? holdForRefusal(response) : undefined;
      let body = '';
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        current.terminate();
        refused(response, body, heldUntilRead);
      };
      response.on('data', (chunk: Buffer) => {
        if (body.length < REFUSAL_BODY_LIMIT) body += chunk.toString('utf8');
      });
      response.on('end', end);
      response.on('close', end);
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

function refusalHeaders(response: UpgradeRefusal): { get(name: string): string | null } {
  return { get: (name: string) => headerText(response.headers?.[name]) };
}

function headerText(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? (value[0] ?? null) : value;
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
