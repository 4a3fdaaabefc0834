import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AuthFailureThrottle } from './auth-throttle.js';
import { unauthorized } from './errors.js';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Every route of this scope needs `Authorization: Bearer <admin token>`, compared in constant time;
 * wrong tokens count against the client address like wrong API keys.
 */
export function requireAdminToken(app: FastifyInstance, adminToken: string, throttle: AuthFailureThrottle): void {
  const expected = digest(adminToken);
  app.addHook('onRequest', async (request) => {
    throttle.refuseIfExhausted(request.ip);
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (.+)$/i.exec(header);
    if (!match) throw unauthorized('missing Authorization: Bearer <admin token> header');
    if (!timingSafeEqual(digest(match[1]!), expected)) {
      throttle.recordFailure(request.ip);
      throw unauthorized('admin token is not valid');
    }
  });
}
