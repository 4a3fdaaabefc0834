import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, NetworkStore } from '../store/networks.js';
import { unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The server the X-API-Key belongs to; set on every `/v1/{platform}` route. */
    caller: Caller | null;
  }
}

/** Reads X-API-Key; 401 when it is missing or matches no server. The key itself is never echoed. */
export function authenticate(request: FastifyRequest, networks: NetworkStore): Caller {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (!apiKey) throw unauthorized('missing X-API-Key header');
  const caller = networks.authenticate(apiKey);
  if (!caller) throw unauthorized('X-API-Key is not valid');
  return caller;
}

/** Adds an onRequest hook to this scope that authenticates every request. */
export function requireApiKey(app: FastifyInstance, networks: NetworkStore): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    request.caller = authenticate(request, networks);
  });
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized('missing X-API-Key header');
  return request.caller;
}
