import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { AuthFailureThrottle } from '../http/auth-throttle.js';
import { unauthorized } from '../http/errors.js';
import type { ServiceMetrics } from './service-metrics.js';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Whether an `Authorization` header carries the token (compared in constant time). */
function hasToken(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer (.+)$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), expected);
}

/**
 * `GET /metrics` on the service's own port, for a scraper holding `token` as a bearer token. Wrong
 * tokens count against the client address like wrong admin tokens.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: ServiceMetrics,
  token: string,
  throttle: AuthFailureThrottle,
): void {
  const expected = digest(token);
  app.get('/metrics', { config: { rateLimit: false } }, async (request, reply) => {
    throttle.refuseIfExhausted(request.ip);
    if (!request.headers.authorization) throw unauthorized('missing Authorization: Bearer <metrics token> header');
    if (!hasToken(request.headers.authorization, expected)) {
      throttle.recordFailure(request.ip);
      throw unauthorized('metrics token is not valid');
    }
    reply.header('cache-control', 'no-store').type(metrics.contentType);
    return metrics.render();
  });
}

export interface MetricsListener {
  /** `http://HOST:PORT` with the real port. */
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on a listener of its own (a port the load balancer does not expose), with or
 * without a bearer token; any other path is a 404.
 */
export async function startMetricsListener(
  metrics: ServiceMetrics,
  options: { host: string; port: number; token?: string },
): Promise<MetricsListener> {
  const expected = options.token === undefined ? undefined : digest(options.token);
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const answer = (status: number, message: string) =>
      response
        .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ status, success: false, error: status === 404 ? 'Not Found' : 'Unauthorized', message }));
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      answer(404, `no ${request.method} ${path} here: this listener serves GET /metrics only`);
      return;
    }
    if (expected && !hasToken(request.headers.authorization, expected)) {
      answer(401, 'metrics token is missing or not valid');
      return;
    }
    metrics.render().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const urlHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${urlHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
