import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller, NetworkStorePort } from '../store/ports/networks.js';
import type { AuthFailureThrottle } from './auth-throttle.js';
import { unauthorized } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The server the X-API-Key belongs to; set on every `/v1/{platform}` route. */
    caller: Caller | null;
  }
}

/** Reads X-API-Key; 401 when it is missing or matches no server. The key itself is never echoed. */
export async function authenticate(request: FastifyRequest, networks: NetworkStorePort): Promise<Caller> {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (!apiKey) throw unauthorized('missing X-API-Key header');
  const caller = await networks.authenticate(apiKey);
  if (!caller) throw unauthorized('X-API-Key is not valid');
  return caller;
}

/**
 * Adds an onRequest hook to this scope that authenticates every request; an address that sent
 * too many wrong keys is refused (429) before its key is looked at.
 */
export function requireApiKey(app: FastifyInstance, networks: NetworkStorePort, throttle: AuthFailureThrottle): void {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request) => {
    throttle.refuseIfExhausted(request.ip);
    const hasKey = Boolean(request.headers['x-api-key']);
    try {
      request.caller = await authenticate(request, networks);
    } catch (error) {
      // A missing header guesses nothing; a wrong key does.
      if (hasKey) throttle.recordFailure(request.ip);
      throw error;
    }
  });
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized('missing X-API-Key header');
  return request.caller;
}
