import type { FastifyInstance } from 'fastify';
import type { Readiness } from './readiness.js';

/** Probes are never rate limited (a load balancer has no key) and never cached. */
const PROBE = { config: { rateLimit: false } } as const;

/**
 * `GET /healthz`: the process is alive and its event loop answers (200 even while it drains, so a
 * supervisor does not kill an instance that is finishing its work). `GET /readyz`: 200 when the
 * instance should get traffic, 503 with the reason when its database cannot be reached, the schema
 * is not the one it knows, or it is shutting down.
 */
export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get('/healthz', PROBE, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'alive' };
  });

  app.get('/readyz', PROBE, async (_request, reply) => {
    const report = await readiness.check();
    reply.header('cache-control', 'no-store');
    const checks = { database: report.database, schema: report.schema, draining: report.isDraining };
    if (report.isReady) return { status: 'ready', ...checks };
    return reply.code(503).send({
      status: 503,
      success: false,
      error: 'Service Unavailable',
      message: `not ready: ${report.problem}`,
      ...checks,
    });
  });
}
