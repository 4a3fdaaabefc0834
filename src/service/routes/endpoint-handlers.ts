import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS, OPERATION_NAMES, type OperationName } from '../../api/endpoints.js';
import { RATE_LIMITED } from '../http/rate-limit.js';

/** How the service answers one operation of the endpoint table. */
export interface EndpointHandler {
  /** Spends the caller's per-key token bucket even when only some routes are limited. */
  rateLimited?: true;
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/** One handler per operation: a new endpoint does not compile until it has one. */
export type EndpointHandlers = { readonly [Name in OperationName]: EndpointHandler };

/** Registers every operation of the endpoint table at its method and path, under the scope's prefix. */
export function registerEndpoints(scope: FastifyInstance, handlers: EndpointHandlers): void {
  for (const name of OPERATION_NAMES) {
    const { method, path } = ENDPOINTS[name];
    const { rateLimited, handle } = handlers[name];
    scope.route({ method, url: `/${path}`, ...(rateLimited ? RATE_LIMITED : {}), handler: handle });
  }
}
