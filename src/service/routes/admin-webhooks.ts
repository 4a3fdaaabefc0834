import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_ACTOR, auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { HttpError, notFound } from '../http/errors.js';
import { integerFromQuery, parseOrThrow } from '../http/validate.js';
import { toIso } from '../store/dates.js';
import { refusedDestinationMessage } from '../webhooks/destination.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { renderBody } from '../webhooks/render.js';
import { webhookConfig, webhookUpdate } from '../webhooks/webhook-config.js';
import { MAX_LOG_ENTRIES } from '../webhooks/webhook-log.js';
import type { Webhook } from '../webhooks/webhook-rows.js';
import { redactWebhookUrl } from '../webhooks/webhook-url.js';

const networkParams = z.object({ network: z.string().min(1) });
const webhookParams = networkParams.extend({
  id: z.preprocess(integerFromQuery, z.number().int().min(1, 'must be a webhook id')),
});
const logQuery = z.object({
  limit: z
    .preprocess(
      integerFromQuery,
      z.number().int().min(1, 'must be at least 1').max(MAX_LOG_ENTRIES, `must be at most ${MAX_LOG_ENTRIES}`),
    )
    .default(50),
});

/** An endpoint as the admin API shows it: the URL reduced to scheme and host. */
function shown(webhook: Webhook, counts: { pending: number; dead: number }) {
  const { url, networkId: _networkId, networkName: _networkName, blockedUntilMs, ...rest } = webhook;
  return {
    ...rest,
    url: redactWebhookUrl(url),
    ...counts,
    blockedUntil: blockedUntilMs > 0 ? toIso(blockedUntilMs) : null,
  };
}

/** Webhook endpoints of a network under /admin/v1/networks/:network/webhooks: CRUD, delivery log, test-send. */
export function registerWebhookAdminRoutes(
  app: FastifyInstance,
  context: ServiceContext,
  dispatcher: WebhookDispatcher,
): void {
  const { storage, stores, clock } = context;
  const { webhooks, webhookDeliveries: deliveries, webhookLog: log } = stores;

  async function networkOf(params: unknown): Promise<number> {
    const { network } = parseOrThrow(networkParams, params, 'path');
    const id = await stores.networks.findNetwork(network);
    if (id === undefined) throw notFound(`network ${network} not found`);
    return id;
  }

  async function webhookOf(params: unknown): Promise<Webhook> {
    const networkId = await networkOf(params);
    const { id } = parseOrThrow(webhookParams, params, 'path');
    const webhook = await webhooks.find(networkId, id);
    if (!webhook) throw notFound(`webhook ${id} not found`);
    return webhook;
  }

  // The URL may hold a secret (a Discord token): the audit log names the webhook, never its URL.
  const auditWebhook = (networkId: number, action: string, name: string) =>
    auditApiAction(context, { networkId, via: 'admin', actor: ADMIN_ACTOR, action, subject: name });

  const nameTaken = (name: string) =>
    new HttpError(409, `name: a webhook named '${name}' already exists in this network`);
  const shownWithCounts = async (webhook: Webhook) => shown(webhook, await deliveries.queueCounts(webhook.id));

  /** A URL whose host is or resolves to an internal address is refused before anything is saved. */
  async function checkDestination(url: string): Promise<void> {
    const problem = await dispatcher.checkDestination(url);
    if (problem) throw new HttpError(400, `url: ${refusedDestinationMessage(problem)}`);
  }

  app.post('/networks/:network/webhooks', async (request) => {
    const networkId = await networkOf(request.params);
    const config = parseOrThrow(webhookConfig, request.body);
    await checkDestination(config.url);
    const id = await storage.transaction(async (stores) => {
      if (await stores.webhooks.isNameTaken(networkId, config.name)) throw nameTaken(config.name);
      return stores.webhooks.create(networkId, config, clock.now());
    });
    await auditWebhook(networkId, 'webhook.create', config.name);
    return { success: true, webhook: await shownWithCounts((await webhooks.find(networkId, id))!) };
  });

  app.get('/networks/:network/webhooks', async (request) => {
    const networkId = await networkOf(request.params);
    const shownWebhooks = [];
    for (const webhook of await webhooks.list(networkId)) shownWebhooks.push(await shownWithCounts(webhook));
    return { webhooks: shownWebhooks };
  });

  app.patch('/networks/:network/webhooks/:id', async (request) => {
    const webhook = await webhookOf(request.params);
    const update = parseOrThrow(webhookUpdate, request.body);
    if (update.url !== undefined) await checkDestination(update.url);
    await storage.transaction(async (stores) => {
      if (
        update.name !== undefined &&
        (await stores.webhooks.isNameTaken(webhook.networkId, update.name, webhook.id))
      ) {
        throw nameTaken(update.name);
      }
      await stores.webhooks.update(webhook.networkId, webhook.id, update);
    });
    await auditWebhook(webhook.networkId, 'webhook.update', update.name ?? webhook.name);
    // A re-enabled endpoint or a new URL may have deliveries to send now.
    dispatcher.wake();
    return {
      success: true,
      webhook: await shownWithCounts((await webhooks.find(webhook.networkId, webhook.id))!),
    };
  });

  app.delete('/networks/:network/webhooks/:id', async (request) => {
    const webhook = await webhookOf(request.params);
    await webhooks.remove(webhook.networkId, webhook.id);
    await auditWebhook(webhook.networkId, 'webhook.delete', webhook.name);
    return { success: true };
  });

  app.get('/networks/:network/webhooks/:id/log', async (request) => {
    const webhook = await webhookOf(request.params);
    const { limit } = parseOrThrow(logQuery, request.query, 'query');
    return {
      entries: (await log.entries(webhook.id, limit)).map(({ webhookId: _webhookId, attemptedAtMs, ...entry }) => ({
        ...entry,
        attemptedAt: toIso(attemptedAtMs),
      })),
    };
  });

  app.post('/networks/:network/webhooks/:id/test', async (request) => {
    const webhook = await webhookOf(request.params);
    const nowMs = clock.now();
    if (webhook.blockedUntilMs > nowMs) {
      const retryAfterSeconds = Math.ceil((webhook.blockedUntilMs - nowMs) / 1000);
      throw new HttpError(409, `the receiver asked for no request before ${toIso(webhook.blockedUntilMs)}`, {
        retryAfterSeconds,
      });
    }
    const deliveryId = randomUUID();
    const event = {
      name: webhook.events[0] ?? 'ticket.created',
      occurredAtMs: nowMs,
      values: {
        player: 'TestPlayer',
        actor: 'Bailiff',
        reason: 'test delivery',
        id: 'test',
        type: 'test',
        expires: 'never',
      },
    } as const;
    const body = renderBody(webhook.format, webhook.templates, event, deliveryId, webhook.networkName);
    const outcome = await dispatcher.send({ url: webhook.url, body, deliveryId, event: 'test' });
    if (outcome.kind === 'aborted') throw new HttpError(503, 'the service is closing');
    const attemptedAtMs = clock.now();
    const durationMs = Math.max(0, attemptedAtMs - nowMs);
    if (outcome.kind === 'retryable' && outcome.statusCode === 429 && outcome.retryAfterMs !== undefined) {
      await deliveries.block(webhook.id, attemptedAtMs + outcome.retryAfterMs);
    }
    const entry = {
      webhookId: webhook.id,
      deliveryId,
      event: 'test',
      attemptedAtMs,
      outcome: outcome.kind === 'delivered' ? 'delivered' : 'test failed',
      statusCode: outcome.statusCode,
      excerpt: outcome.excerpt,
    };
    await log.add(entry);
    // Status and timing only: the receiver's answer stays in the delivery log, so a test-send cannot read a page.
    return {
      success: outcome.kind === 'delivered',
      deliveryId,
      statusCode: outcome.statusCode,
      durationMs,
      ...(outcome.problem === undefined ? {} : { problem: outcome.problem }),
    };
  });
}
