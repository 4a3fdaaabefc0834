import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_ACTOR, auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';
import { ladderInput, ladderOfInput, ladderView } from '../ladders/ladder-input.js';

const networkParams = z.object({ network: z.string().min(1) });

/** A network's warning ladder under /admin/v1/networks/:network/warning-ladder: read, set, remove. */
export function registerWarningLadderRoutes(app: FastifyInstance, context: ServiceContext): void {
  const { stores, clock } = context;

  async function networkOf(params: unknown): Promise<number> {
    const { network } = parseOrThrow(networkParams, params, 'path');
    const id = await stores.networks.findNetwork(network);
    if (id === undefined) throw notFound(`network ${network} not found`);
    return id;
  }

  app.get('/networks/:network/warning-ladder', async (request) => {
    const ladder = await stores.warningLadders.ladderOf(await networkOf(request.params));
    if (!ladder) throw notFound('this network has no warning ladder');
    return ladderView(ladder);
  });

  app.put('/networks/:network/warning-ladder', async (request) => {
    const networkId = await networkOf(request.params);
    const ladder = ladderOfInput(parseOrThrow(ladderInput, request.body), clock.now());
    await stores.warningLadders.replace(networkId, ladder);
    const view = ladderView(ladder);
    await auditApiAction(context, {
      networkId,
      via: 'admin',
      actor: ADMIN_ACTOR,
      action: 'ladder.set',
      subject: ladder.name,
      detail: { warningLifetimeDays: view.warningLifetimeDays, steps: view.steps },
    });
    return view;
  });

  app.delete('/networks/:network/warning-ladder', async (request) => {
    const networkId = await networkOf(request.params);
    if (!(await stores.warningLadders.remove(networkId))) throw notFound('this network has no warning ladder');
    await auditApiAction(context, {
      networkId,
      via: 'admin',
      actor: ADMIN_ACTOR,
      action: 'ladder.remove',
      subject: 'ladder',
    });
    return { success: true };
  });
}
