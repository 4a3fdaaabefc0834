import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_ACTOR } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';
import { type ManagementActor, networkIdByName, type ServerManagement } from '../servers/manage-servers.js';
import { MAX_GRACE_MS } from '../servers/server-key.js';
import { ServerManagementError } from '../servers/server-management-error.js';
import { toIso } from '../store/punishment-rows.js';

const ADMIN: ManagementActor = { actor: ADMIN_ACTOR, via: 'admin' };
const networkParams = z.object({ network: z.string().min(1) });
const serverParams = networkParams.extend({ server: z.string().min(1).max(256) });
const nameBody = z.strictObject({ name: z.string() });
const rotateBody = z.strictObject({
  /** How long the old key stays accepted; 0 refuses it at once. */
  graceSeconds: z
    .number()
    .int('must be a whole number of seconds')
    .min(0, 'must be at least 0')
    .max(MAX_GRACE_MS / 1000, `must be at most ${MAX_GRACE_MS / 1000} (30 days)`),
});

/** A refused change as the admin API answers it: 400, 404 or 409 with the message. */
async function answering<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServerManagementError) throw new HttpError(error.status, error.message);
    throw error;
  }
}

/**
 * Networks, servers and keys under /admin/v1 (the admin token): the same changes as the command
 * line and the panel's servers page, audited as `admin token`. A key is in the answer that made it
 * and nowhere else; lists never show one.
 */
export function registerServerAdminRoutes(
  app: FastifyInstance,
  context: ServiceContext,
  management: ServerManagement,
): void {
  const { stores } = context;
  const networkOf = (params: unknown) =>
    answering(() => networkIdByName(stores, parseOrThrow(networkParams, params, 'path').network));

  app.get('/networks', async () => ({
    networks: (await stores.networks.listNetworks()).map((network) => ({ name: network.name })),
  }));

  app.post('/networks', async (request) => {
    const { name } = parseOrThrow(nameBody, request.body);
    const network = await answering(() => management.addNetwork(name, ADMIN));
    return { success: true, network: { name: network.name } };
  });

  app.get('/networks/:network/servers', async (request) => {
    const networkId = await networkOf(request.params);
    const servers = await management.listServers(networkId);
    return {
      servers: servers.map((server) => ({
        name: server.name,
        keySetAt: server.keySetAt === null ? null : toIso(server.keySetAt),
        oldKeysValidUntil: server.retiredKeysValidUntil.map((until) => toIso(until)),
      })),
    };
  });

  app.post('/networks/:network/servers', async (request, reply) => {
    const networkId = await networkOf(request.params);
    const { name } = parseOrThrow(nameBody, request.body);
    const added = await answering(() => management.addServer(networkId, name, ADMIN));
    reply.header('cache-control', 'no-store');
    return { success: true, server: { name: added.name }, apiKey: added.apiKey };
  });

  app.post('/networks/:network/servers/:server/key', async (request, reply) => {
    const networkId = await networkOf(request.params);
    const { server } = parseOrThrow(serverParams, request.params, 'path');
    const { graceSeconds } = parseOrThrow(rotateBody, request.body);
    const rotated = await answering(() => management.rotateKey(networkId, server, graceSeconds * 1000, ADMIN));
    reply.header('cache-control', 'no-store');
    return {
      success: true,
      apiKey: rotated.apiKey,
      oldKeyValidUntil: rotated.oldKeyValidUntilMs === null ? null : toIso(rotated.oldKeyValidUntilMs),
    };
  });

  app.delete('/networks/:network/servers/:server', async (request) => {
    const networkId = await networkOf(request.params);
    const { server } = parseOrThrow(serverParams, request.params, 'path');
    await answering(() => management.removeServer(networkId, server, ADMIN));
    return { success: true };
  });
}
