import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one request:
 * - `pass`: forward and relay the answer;
 * - `rate-limit`: answer 429 with `Retry-After` without forwarding;
 * - `server-error`: answer 500 without forwarding;
 * - `drop-before`: destroy the connection without forwarding;
 * - `drop-after`: forward, then destroy the connection instead of relaying the answer;
 * - `slow`: forward, relay the answer after `slowMs`;
 * - `stall`: forward, relay the answer after `stallMs` (longer than the client waits: a timeout).
 */
export type Fault = 'pass' | 'rate-limit' | 'server-error' | 'drop-before' | 'drop-after' | 'slow' | 'stall';

export interface ProxiedRequest {
  index: number;
  method: string;
  path: string;
  body: string;
  fault: Fault;
  /** Status the real service answered, when the request reached it. */
  upstreamStatus?: number;
}

export interface FaultProxyOptions {
  /** Chooses the fault of the request with this index (0-based, in arrival order). */
  plan: (index: number, request: { method: string; path: string; body: string }) => Fault;
  /** @default 1 */
  retryAfterSeconds?: number;
  /** @default 300 */
  slowMs?: number;
  /** @default 1500 */
  stallMs?: number;
}

export interface FaultProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function forwardedHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'host' || name === 'content-length' || name === 'connection' || value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A loopback HTTP proxy in front of `upstream` that injects the faults its plan asks for. */
export async function startFaultProxy(upstream: string, options: FaultProxyOptions): Promise<FaultProxy> {
  const requests: ProxiedRequest[] = [];
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  const delayMs = { slow: options.slowMs ?? 300, stall: options.stallMs ?? 1500 };
  const timers = new Set<NodeJS.Timeout>();

  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const seen = { method: request.method ?? 'GET', path: request.url ?? '/', body };
    const entry: ProxiedRequest = { index: requests.length, ...seen, fault: options.plan(requests.length, seen) };
    requests.push(entry);
    if (entry.fault === 'drop-before') return request.socket.destroy();
    if (entry.fault === 'rate-limit') {
      return sendJson(
        response,
        429,
        { status: 429, success: false, error: 'Too Many Requests', message: 'injected', retryAfterSeconds },
        { 'retry-after': String(retryAfterSeconds) },
      );
    }
    if (entry.fault === 'server-error') {
      return sendJson(response, 500, {
        status: 500,
        success: false,
        error: 'Internal Server Error',
        message: 'injected',
      });
    }
    let answer: Response;
    try {
      answer = await fetch(`${upstream}${entry.path}`, {
        method: entry.method,
        headers: forwardedHeaders(request),
        body: entry.method === 'GET' || entry.method === 'HEAD' ? undefined : body,
      });
    } catch {
      return request.socket.destroy();
    }
    const text = await answer.text();
    entry.upstreamStatus = answer.status;
    if (entry.fault === 'drop-after') return request.socket.destroy();
    const relay = () => {
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      response.end(text);
    };
    if (entry.fault !== 'slow' && entry.fault !== 'stall') return relay();
    const timer = setTimeout(() => {
      timers.delete(timer);
      relay();
    }, delayMs[entry.fault]);
    timers.add(timer);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
