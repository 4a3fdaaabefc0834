import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_ACTOR, auditApiAction } from '../api-audit.js';
import { appealCooldownHours } from '../appeals/appeal-cooldown.js';
import { chatLogMaxLines, chatLogRetentionDays, chatLogSettingsOf } from '../chat-log/chat-log-settings.js';
import type { ServiceContext } from '../context.js';
import { notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';

const networkParams = z.object({ network: z.string().min(1) });

/** Longest issuer label of public pages. */
export const MAX_PUBLIC_ISSUER_LABEL_LENGTH = 32;

/** The owner's switches of a network; every field is optional in an update. */
export const networkSettingsUpdate = z.strictObject({
  /** Whether /panel/public/<network>/ lists the network's punishments. @default false */
  publicList: z.boolean().optional(),
  /**
   * What public pages (the public list, an appeal's "Answer from ...") call every issuer instead of
   * the staff member's name; null goes back to the default. @default 'Staff'
   */
  publicIssuerLabel: z
    .string()
    .trim()
    .min(1, 'must not be empty (null goes back to "Staff")')
    .max(MAX_PUBLIC_ISSUER_LABEL_LENGTH, `must be at most ${MAX_PUBLIC_ISSUER_LABEL_LENGTH} characters`)
    .nullable()
    .optional(),
  /** Hours a punishment waits after a denied appeal before it may be appealed again; 0: no wait. @default 168 */
  appealCooldownHours: appealCooldownHours.optional(),
  /** Days the network keeps its chat log; null goes back to the default. @default 30 */
  chatLogRetentionDays: chatLogRetentionDays.optional(),
  /** Chat log lines the network keeps at most, the oldest dropped first; null goes back to the default. @default 10000000 */
  chatLogMaxLines: chatLogMaxLines.optional(),
});

const prefixed = (settings: { retentionDays: number; maxLines: number }) => ({
  chatLogRetentionDays: settings.retentionDays,
  chatLogMaxLines: settings.maxLines,
});

/** A network's settings under /admin/v1/networks/:network/settings (read, and change some). */
export function registerNetworkSettingsRoutes(app: FastifyInstance, context: ServiceContext): void {
  const { stores } = context;

  async function networkOf(params: unknown): Promise<number> {
    const { network } = parseOrThrow(networkParams, params, 'path');
    const id = await stores.networks.findNetwork(network);
    if (id === undefined) throw notFound(`network ${network} not found`);
    return id;
  }

  const settingsOf = async (networkId: number) => ({
    publicList: await stores.publicList.isPublic(networkId),
    publicIssuerLabel: await stores.publicList.issuerLabel(networkId),
    appealCooldownHours: await stores.appeals.cooldownHours(networkId),
    ...prefixed(chatLogSettingsOf(await stores.chatLog.settings(networkId))),
  });

  app.get('/networks/:network/settings', async (request) => settingsOf(await networkOf(request.params)));

  app.patch('/networks/:network/settings', async (request) => {
    const networkId = await networkOf(request.params);
    const update = parseOrThrow(networkSettingsUpdate, request.body);
    if (update.publicList !== undefined) await stores.publicList.setPublic(networkId, update.publicList);
    if (update.publicIssuerLabel !== undefined) {
      await stores.publicList.setIssuerLabel(networkId, update.publicIssuerLabel);
    }
    if (update.appealCooldownHours !== undefined) {
      await stores.appeals.setCooldownHours(networkId, update.appealCooldownHours);
    }
    if (update.chatLogRetentionDays !== undefined) {
      await stores.chatLog.setRetentionDays(networkId, update.chatLogRetentionDays);
    }
    if (update.chatLogMaxLines !== undefined) await stores.chatLog.setMaxLines(networkId, update.chatLogMaxLines);
    await auditApiAction(context, {
      networkId,
      via: 'admin',
      actor: ADMIN_ACTOR,
      action: 'network.settings',
      subject: 'settings',
      detail: update,
    });
    return settingsOf(networkId);
  });
}
