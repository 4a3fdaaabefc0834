import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { unauthorized } from './errors.js';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** Every route of this scope needs `Authorization: Bearer <admin token>`, compared in constant time. */
export function requireAdminToken(app: FastifyInstance, adminToken: string): void {
  const expected = digest(adminToken);
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (.+)$/i.exec(header);
    if (!match) throw unauthorized('missing Authorization: Bearer <admin token> header');
    if (!timingSafeEqual(digest(match[1]!), expected)) throw unauthorized('admin token is not valid');
  });
}
