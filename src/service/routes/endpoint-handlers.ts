import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS, OPERATION_NAMES, type OperationName } from '../../contract/endpoints.js';
import { RATE_LIMITED, writeLimited } from '../http/rate-limit.js';

/** How the service answers one operation of the endpoint table. */
export interface EndpointHandler {
  /**
   * Spends the caller's per-key request bucket even when only some routes are limited. A POST
   * without it spends the key's write bucket.
   */
  rateLimited?: true;
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/** One handler per operation: a new endpoint does not compile until it has one. */
export type EndpointHandlers = { readonly [Name in OperationName]: EndpointHandler };

/**
 * Registers every operation of the endpoint table at its method and path, under the scope's prefix;
 * every write is limited, by the request bucket or the write bucket.
 */
export function registerEndpoints(scope: FastifyInstance, handlers: EndpointHandlers, writesPerMinute: number): void {
  const writeOptions = writeLimited(writesPerMinute);
  for (const name of OPERATION_NAMES) {
    const { method, path } = ENDPOINTS[name];
    const { rateLimited, handle } = handlers[name];
    const limit = rateLimited ? RATE_LIMITED : method === 'POST' ? writeOptions : {};
    scope.route({ method, url: `/${path}`, ...limit, handler: handle });
  }
}
