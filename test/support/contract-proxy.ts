import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { routeOf } from './contract-profile.js';
import { type FaultPlan, type FaultRule, passAll, withRules } from './fault-plan.js';
import {
  type Answer,
  advertisedWaitSeconds,
  errorAnswer,
  type RateLimitAnswer,
  rateLimitAnswer,
  sendAnswer,
  writeRawAnswer,
} from './proxy-answers.js';
import {
  keyLabeller,
  type LoggedFault,
  type ProxiedRequestEntry,
  type ProxyLog,
  proxyNow,
  type RateLimitWindow,
} from './proxy-log.js';
import { tunnelUpgrade } from './proxy-tunnel.js';

/** Request headers a proxy never forwards: hop-by-hop, or recomputed by fetch. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'upgrade']);
/** Answer headers not relayed: fetch has already decoded and de-chunked the body. */
const NOT_RELAYED = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding', 'content-encoding']);
const LOGGED_BODY_CHARS = 16_384;

export interface ContractProxyOptions {
  /** Base URL of the reference service (read at each request: it may be restarted). */
  upstream: () => string;
  /**
   * `contract`: only the 12 published endpoints; every extension (`players/login`,
   * `player/login`, the pardon, the `stream` upgrade, anything else) answers 404 in the
   * service's error shape. `reference`: everything is passed through, the stream included.
   * `no-stream`: everything but the `stream` upgrade, which answers 404 (a service without the
   * stream, so the plugin polls).
   */
  profile: 'contract' | 'reference' | 'no-stream';
  /** @default every request passes */
  plan?: FaultPlan;
  /** `strip`: a service that ignores `Idempotency-Key`. @default 'pass' */
  idempotencyKey?: 'pass' | 'strip';
  /** @default 'minecraft' */
  platform?: string;
  /** What a client gets while the service cannot be reached: `drop` the connection, or a 502. @default 'drop' */
  whenUpstreamDown?: 'drop' | 'bad-gateway';
}

export interface ContractProxy {
  url: string;
  /** Live: every request and every 429 window so far. */
  readonly log: ProxyLog;
  setPlan(plan: FaultPlan): void;
  setIdempotencyKey(mode: 'pass' | 'strip'): void;
  /** Adds a rule consulted before the plan (see `withRules`). */
  inject(rule: FaultRule): void;
  /** Removes every injected rule; the plan stays. */
  clearFaults(): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy in front of the reference service that offers the published contract
 * (or everything), injects the faults its plan deals, and logs every request and every 429
 * window it opened, per API key.
 */
export async function startContractProxy(options: ContractProxyOptions): Promise<ContractProxy> {
  const platform = options.platform ?? 'minecraft';
  const log: ProxyLog = { requests: [], windows: [] };
  const labelKey = keyLabeller();
  // Upgraded sockets, both sides: server.close() would wait for them, closeAllConnections() does not end them.
  const upgraded = new Set<Duplex>();
  const track = (socket: Duplex) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
  };
  const connections = new WeakMap<object, number>();
  let connectionCount = 0;
  let plan = options.plan ?? passAll;
  let idempotency = options.idempotencyKey ?? 'pass';
  const rules: FaultRule[] = [];
  const lateAnswers = new Set<NodeJS.Timeout>();

  /** Logs the arrival and decides its fault at once, so faults are dealt in arrival order. */
  const arrive = (request: IncomingMessage, upgrade: boolean) => {
    const arrivedAtMs = proxyNow();
    const url = new URL(request.url ?? '/', 'http://proxy.invalid');
    const method = request.method ?? 'GET';
    const route = routeOf(method, url.pathname, platform);
    const entry: ProxiedRequestEntry = {
      index: log.requests.length,
      arrivedAtMs,
      method,
      path: url.pathname,
      query: url.search,
      endpoint: route.endpoint,
      key: labelKey(header(request, 'x-api-key')),
      idempotencyKey: header(request, 'idempotency-key'),
      body: '',
      connection: connections.get(request.socket) ?? 0,
      upgrade,
      fault: { kind: 'pass' },
    };
    log.requests.push(entry);
    const offered =
      options.profile === 'contract'
        ? route.inContract
        : options.profile === 'reference' || route.endpoint !== 'stream';
    if (!offered) {
      entry.fault = { kind: 'not-offered' };
    } else {
      entry.fault = withRules(
        rules,
        plan,
      )({ index: entry.index, method, path: url.pathname, endpoint: route.endpoint });
    }
    return entry;
  };

  /** The proxy's own answer for a fault that never reaches the service, or undefined. */
  const ownAnswer = (entry: ProxiedRequestEntry): Answer | RateLimitAnswer | undefined => {
    const fault = entry.fault;
    if (fault.kind === 'not-offered') return errorAnswer(404, `no route ${entry.method} ${entry.path}`);
    if (fault.kind === 'server-error') return errorAnswer(fault.status, 'injected fault');
    if (fault.kind === 'rate-limit') return rateLimitAnswer(fault.channel, fault.waitSeconds, proxyNow());
    if (fault.kind === 'answer') {
      return {
        status: fault.status,
        headers: { 'content-type': 'application/json', ...fault.headers },
        body: fault.body,
      };
    }
    return undefined;
  };

  /**
   * Records what the client got; a 429 opens a window for the key from `sentAtMs` (stamped just
   * before its status line is written: a stamp taken after could lag behind what the client has
   * already read) to then + its wait, or to the HTTP date it named.
   */
  const recordAnswer = (
    entry: ProxiedRequestEntry,
    status: number,
    sentAtMs: number,
    wait?: Pick<RateLimitWindow, 'channel' | 'waitSeconds'> & { closesAtMs?: number },
  ) => {
    entry.status = status;
    if (!wait) return;
    const closesAtMs = wait.closesAtMs ?? sentAtMs + wait.waitSeconds * 1000;
    log.windows.push({
      key: entry.key,
      requestIndex: entry.index,
      channel: wait.channel,
      waitSeconds: (closesAtMs - sentAtMs) / 1000,
      opensAtMs: sentAtMs,
      closesAtMs,
    });
  };
  // An HTTP date names the window's end; any other wait counts from when the answer is sent.
  const ownWait = (fault: LoggedFault, answer: Answer | RateLimitAnswer) => {
    if (fault.kind !== 'rate-limit') return undefined;
    return fault.channel === 'http-date' && 'closesAtMs' in answer
      ? { ...fault, closesAtMs: answer.closesAtMs }
      : fault;
  };
  /** The status line and headers now, the body `delayMs` later (a proxy streaming the answer). */
  const sendInTwoParts = (response: ServerResponse, answer: Answer, delayMs: number) => {
    response.writeHead(answer.status, answer.headers);
    response.flushHeaders();
    const timer = setTimeout(() => {
      lateAnswers.delete(timer);
      response.end(answer.body);
    }, delayMs);
    lateAnswers.add(timer);
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const entry = arrive(request, false);
    const body = await readBody(request);
    entry.body = body.toString('utf8').slice(0, LOGGED_BODY_CHARS);
    const fault = entry.fault;
    if (fault.kind === 'drop-before') return void request.socket.destroy();
    const own = ownAnswer(entry);
    if (own) {
      const sentAtMs = proxyNow();
      if (fault.kind === 'rate-limit' && fault.bodyDelayMs !== undefined) {
        sendInTwoParts(response, own, fault.bodyDelayMs);
      } else {
        sendAnswer(response, own);
      }
      recordAnswer(entry, own.status, sentAtMs, ownWait(fault, own));
      return;
    }
    let reply: Response;
    try {
      reply = await fetch(`${options.upstream()}${request.url}`, {
        method: entry.method,
        headers: forwardedHeaders(request, idempotency),
        body: entry.method === 'GET' || entry.method === 'HEAD' ? undefined : body,
        redirect: 'manual',
      });
    } catch {
      entry.upstreamDown = true;
      if (options.whenUpstreamDown !== 'bad-gateway') return void request.socket.destroy();
      sendAnswer(response, errorAnswer(502, 'service down'));
      return recordAnswer(entry, 502, proxyNow());
    }
    const text = await reply.text();
    entry.upstreamStatus = reply.status;
    if (fault.kind === 'drop-after') return void request.socket.destroy();
    const relay = () => {
      const sentAtMs = proxyNow();
      response.writeHead(reply.status, relayedHeaders(reply.headers));
      response.end(text);
      const wait = { channel: 'upstream' as const, waitSeconds: advertisedWaitSeconds(reply.headers, text, sentAtMs) };
      recordAnswer(entry, reply.status, sentAtMs, reply.status === 429 ? wait : undefined);
    };
    if (fault.kind !== 'slow') return relay();
    const timer = setTimeout(() => {
      lateAnswers.delete(timer);
      relay();
    }, fault.delayMs);
    lateAnswers.add(timer);
  }

  function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const entry = arrive(request, true);
    track(socket);
    socket.on('error', () => {});
    const fault = entry.fault;
    if (fault.kind === 'drop-before') return void socket.destroy();
    const own = ownAnswer(entry);
    if (own) {
      const sentAtMs = proxyNow();
      writeRawAnswer(socket, own);
      recordAnswer(entry, own.status, sentAtMs, ownWait(fault, own));
      return;
    }
    tunnelUpgrade({
      request,
      socket,
      head,
      upstream: options.upstream(),
      dropAfterAnswer: fault.kind === 'drop-after',
      track,
      onSettled: (outcome) => {
        Object.assign(entry, outcome);
        if (fault.kind !== 'drop-after' && outcome.upstreamStatus !== undefined) entry.status = outcome.upstreamStatus;
      },
    });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => request.socket.destroy());
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    try {
      upgrade(request, socket, head);
    } catch {
      socket.destroy();
    }
  });
  // As long as fastify keeps an idle connection (the service the proxy stands for): with Node's
  // 5 s, a client whose event loop lags on a busy machine reuses a connection the proxy has just
  // closed, and its request fails with "other side closed" before reaching the proxy.
  server.keepAliveTimeout = 72_000;
  server.on('connection', (socket) => {
    connectionCount += 1;
    connections.set(socket, connectionCount);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    setPlan(next) {
      plan = next;
    },
    setIdempotencyKey(mode) {
      idempotency = mode;
    },
    inject(rule) {
      rules.push(rule);
    },
    clearFaults() {
      rules.length = 0;
    },
    async close() {
      for (const timer of lateAnswers) clearTimeout(timer);
      for (const socket of upgraded) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forwardedHeaders(request: IncomingMessage, idempotency: 'pass' | 'strip'): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    if (name === 'idempotency-key' && idempotency === 'strip') continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function relayedHeaders(headers: Headers): Record<string, string> {
  const relayed: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!NOT_RELAYED.has(name)) relayed[name] = value;
  });
  return relayed;
}
