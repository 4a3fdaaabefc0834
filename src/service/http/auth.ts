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

/**
 * Reads X-API-Key; 401 when it is missing or matches no server. The key itself is never echoed.
 * `onWrongKey` is called only when a key was compared and matched no server: a missing header
 * guesses nothing, and a database that cannot be asked (a 503) compared nothing.
 */
export async function authenticate(
  request: FastifyRequest,
  networks: NetworkStorePort,
  onWrongKey: () => void = () => {},
): Promise<Caller> {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (!apiKey) throw unauthorized('missing X-API-Key header');
  const caller = await networks.authenticate(apiKey);
  if (!caller) {
    onWrongKey();
    throw unauthorized('X-API-Key is not valid');
  }
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
    request.caller = await authenticate(request, networks, () => throttle.recordFailure(request.ip));
  });
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw unauthorized('missing X-API-Key header');
  return request.caller;
}
