import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_ACTOR, auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { HttpError, notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';
import { storedId } from '../limits.js';
import type { ImportJobs } from '../migration/import-job.js';

const uploadParams = z.object({ network: z.string().min(1), id: storedId });

/** `POST /admin/v1/networks/:network/migrations/:id/cancel`: an operator stops a running import. */
export function registerMigrationAdminRoutes(app: FastifyInstance, context: ServiceContext, jobs: ImportJobs): void {
  const { stores } = context;

  app.post('/networks/:network/migrations/:id/cancel', async (request) => {
    const { network, id } = parseOrThrow(uploadParams, request.params, 'path');
    const networkId = await stores.networks.findNetwork(network);
    if (networkId === undefined) throw notFound(`network ${network} not found`);
    const outcome = await jobs.cancel(networkId, id, 'the admin API');
    if (outcome === 'not-found') throw notFound(`migration upload ${id} not found`);
    const upload = (await stores.migrations.find(networkId, id))!;
    if (outcome === 'not-running') {
      throw new HttpError(409, `migration upload ${id} is ${upload.status}, not running: nothing to cancel`, {
        migration: upload,
      });
    }
    await auditApiAction(context, {
      networkId,
      via: 'admin',
      actor: ADMIN_ACTOR,
      action: 'migration.cancel',
      subject: id,
      detail: { processed: upload.processed, total: upload.total },
    });
    return { success: true, message: `migration upload ${id} cancelled`, migration: upload };
  });
}
