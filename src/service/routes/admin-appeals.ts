import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_ACTOR, auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';
import { storedId } from '../limits.js';

const punishmentParams = z.object({ network: z.string().min(1), id: storedId });
const appealableBody = z.strictObject({ appealable: z.boolean() });

/**
 * `POST /admin/v1/networks/:network/punishments/:id/appealable` `{appealable}`: marks a punishment
 * unappealable (no appeal code is given for it, the appeal form refuses it) or appealable again.
 * The panel does the same from a player's page; an IP ban, which has no player page, only here.
 */
export function registerAppealAdminRoutes(app: FastifyInstance, context: ServiceContext): void {
  const { stores, clock } = context;
  app.post('/networks/:network/punishments/:id/appealable', async (request) => {
    const { network, id } = parseOrThrow(punishmentParams, request.params, 'path');
    const { appealable } = parseOrThrow(appealableBody, request.body);
    const networkId = await stores.networks.findNetwork(network);
    if (networkId === undefined) throw notFound(`network ${network} not found`);
    if (!(await stores.punishments.find(networkId, id))) throw notFound(`punishment ${id} not found`);
    const mark = appealable ? null : { markedBy: ADMIN_ACTOR, markedAtMs: clock.now() };
    const changed = await stores.appeals.setUnappealable(networkId, id, mark);
    if (changed) {
      const action = appealable ? 'punishment.appealable' : 'punishment.unappealable';
      await auditApiAction(context, { networkId, via: 'admin', actor: ADMIN_ACTOR, action, subject: id });
    }
    const marked = await stores.appeals.unappealable(networkId, id);
    return { success: true, changed, appealable: marked === undefined, markedBy: marked?.markedBy ?? null };
  });
}
