import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from './service-metrics.js';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Counts every answered request by its route template (never the raw URL: ids and names stay out
 * of the labels), method and status; times the login check; counts the 429s.
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: ServiceMetrics, loginCheckRoute: string): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const method = METHODS.has(request.method) ? request.method : 'OTHER';
    const status = reply.statusCode;
    metrics.requests.inc({ route, method, status: String(status) });
    if (status === 429) metrics.rateLimited.inc({ channel: 'http' });
    if (route === loginCheckRoute) metrics.loginCheckSeconds.observe(reply.elapsedTime / 1000);
  });
}
