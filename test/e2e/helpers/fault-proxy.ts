import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedCall {
  method: string;
  path: string;
  status: number;
  /** True when the proxy answered itself (an injected fault, or the service was down). */
  injected: boolean;
}

export interface Fault {
  /** Matches the request path (without the query). */
  path: RegExp;
  status: number;
  body: string;
  headers?: Record<string, string>;
  /** How many matching requests get this answer. */
  times: number;
  /** Wait this long before answering (or forwarding). @default 0 */
  delayMs?: number;
  /** After `delayMs`, forward the request to the service instead of answering `status` and `body`. */
  passThrough?: boolean;
}

/**
 * A loopback HTTP proxy between the plugin and the service that can answer chosen requests
 * with faults (429, 500, malformed bodies). WebSocket upgrades get 404, as from a service
 * without the stream, so the plugin polls. While the service is down it answers 502.
 */
export async function startFaultProxy(upstream: () => string) {
  const faults: Fault[] = [];
  const calls: ProxiedCall[] = [];
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const fault = faults.find((candidate) => candidate.times > 0 && candidate.path.test(path));
    if (fault) fault.times -= 1;
    if (fault && !fault.passThrough) {
      request.resume();
      setTimeout(() => {
        calls.push({ method: request.method ?? 'GET', path, status: fault.status, injected: true });
        response.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        response.end(fault.body);
      }, fault.delayMs ?? 0);
      return;
    }
    if (fault) setTimeout(forward, fault.delayMs ?? 0);
    else forward();

    function forward(): void {
      const target = new URL(request.url ?? '/', upstream());
      const forwarded = http.request(
        target,
        { method: request.method, headers: { ...request.headers, host: target.host } },
        (answer) => {
          calls.push({ method: request.method ?? 'GET', path, status: answer.statusCode ?? 0, injected: false });
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => {
        calls.push({ method: request.method ?? 'GET', path, status: 502, injected: true });
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: 502, success: false, error: 'Bad Gateway', message: 'service down' }));
      });
      request.pipe(forwarded);
    }
  });
  server.on('upgrade', (_request, socket) => {
    socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    inject(fault: Fault) {
      faults.push(fault);
    },
    clearFaults() {
      faults.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
