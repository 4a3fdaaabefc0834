import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { playerLoginBody } from '../../contract/schemas.js';
import { ADMIN_ACTOR, auditApiAction } from '../api-audit.js';
import type { ServiceContext } from '../context.js';
import { linkedAccounts } from '../evasion/linked-accounts.js';
import { requireAdminToken } from '../http/admin-auth.js';
import type { AuthFailureThrottle } from '../http/auth-throttle.js';
import { notFound } from '../http/errors.js';
import { parseOrThrow } from '../http/validate.js';
import { storedId, storedTicket } from '../limits.js';
import { changePunishmentStatus } from '../punishment-actions.js';
import { toAdminPunishment, toIso } from '../store/punishment-rows.js';
import { recordStaffReply } from '../tickets/staff-reply.js';
import { ticketCreatedEvents, ticketEvent, type WebhookEvent } from '../webhooks/events.js';

/** Statuses the reference service uses (docs/contract/service-semantics.md, Punishment life). */
export const PUNISHMENT_STATUSES = ['active', 'pardoned', 'expired'] as const;

const networkParams = z.object({ network: z.string().min(1) });
const networkAndId = networkParams.extend({ id: storedId });
const replyBody = z.strictObject({ authorName: z.string().min(1, 'must not be empty'), message: z.string() });
const statusBody = z.strictObject({ status: z.enum(PUNISHMENT_STATUSES) });

const isClosed = (status: string) => status.toLowerCase() === 'closed';

/** The admin API under /admin/v1: what the contract cannot do (players, tickets, pardons, inspection). */
export function registerAdminRoutes(
  app: FastifyInstance,
  context: ServiceContext,
  adminToken: string,
  throttle: AuthFailureThrottle,
): void {
  const { storage, stores, clock, ids, webhooks } = context;
  requireAdminToken(app, adminToken, throttle);
  const audit = (networkId: number, action: string, subject: string, detail?: Record<string, unknown>) =>
    auditApiAction(context, {
      networkId,
      via: 'admin',
      actor: ADMIN_ACTOR,
      action,
      subject,
      ...(detail ? { detail } : {}),
    });

  async function networkOf(params: unknown): Promise<number> {
    const { network } = parseOrThrow(networkParams, params, 'path');
    const id = await stores.networks.findNetwork(network);
    if (id === undefined) throw notFound(`network ${network} not found`);
    return id;
  }

  app.post('/networks/:network/players', async (request) => {
    const body = parseOrThrow(playerLoginBody, request.body);
    const networkId = await networkOf(request.params);
    await stores.players.save(networkId, body.uuid, body.name);
    await audit(networkId, 'player.save', body.uuid, { name: body.name });
    return { success: true };
  });

  app.post('/networks/:network/tickets', async (request) => {
    const body = parseOrThrow(storedTicket, request.body);
    const networkId = await networkOf(request.params);
    await storage.transaction(async (stores) => {
      const before = await stores.tickets.factsOf(networkId, body.id);
      await stores.tickets.save(networkId, body);
      const nowMs = clock.now();
      const events: WebhookEvent[] = before ? [] : ticketCreatedEvents(body, body.description, nowMs);
      if (isClosed(body.status) && !(before && isClosed(before.status))) {
        events.push(ticketEvent('ticket.closed', body, 'staff', body.subject, nowMs));
      }
      await webhooks.record(networkId, events, stores);
    });
    await audit(networkId, 'ticket.save', body.id, { status: body.status });
    return { success: true, id: body.id };
  });

  app.post('/networks/:network/tickets/:id/replies', async (request) => {
    const networkId = await networkOf(request.params);
    const { id } = parseOrThrow(networkAndId, request.params, 'path');
    const body = parseOrThrow(replyBody, request.body);
    const facts = await stores.tickets.factsOf(networkId, id);
    if (!facts) throw notFound(`ticket ${id} not found`);
    const nowMs = clock.now();
    const reply = { id: ids(), authorName: body.authorName, message: body.message, createdAt: toIso(nowMs) };
    // The creator is told in game, as for a reply from a server's staff.
    await storage.transaction((stores) => recordStaffReply(context, stores, networkId, facts, reply, nowMs));
    await audit(networkId, 'ticket.reply', id, { authorName: body.authorName });
    return { success: true, reply };
  });

  app.post('/networks/:network/punishments/:id/status', async (request) => {
    const networkId = await networkOf(request.params);
    const { id } = parseOrThrow(networkAndId, request.params, 'path');
    const { status } = parseOrThrow(statusBody, request.body);
    if (!(await stores.punishments.find(networkId, id))) throw notFound(`punishment ${id} not found`);
    const changed = await changePunishmentStatus(context, networkId, id, status);
    if (changed) await audit(networkId, 'punishment.status', id, { status });
    return { success: true, changed, punishment: toAdminPunishment((await stores.punishments.find(networkId, id))!) };
  });

  app.get('/networks/:network/punishments/:id', async (request) => {
    const networkId = await networkOf(request.params);
    const { id } = parseOrThrow(networkAndId, request.params, 'path');
    const row = await stores.punishments.find(networkId, id);
    if (!row) throw notFound(`punishment ${id} not found`);
    const acknowledgedAt = await stores.notifications.acknowledgedAt(networkId, id);
    const pardon = await stores.pardons.find(networkId, id);
    const acknowledgements = await stores.enforcement.acknowledgements(networkId, id);
    const evidence = await stores.enforcement.evidence(networkId, id);
    return {
      punishment: toAdminPunishment(row),
      acknowledgements: acknowledgements.map((ack) => ({ ...ack, executedAt: toIso(ack.executedAt) })),
      evidence: evidence.map((item) => ({ ...item, createdAt: toIso(item.createdAt) })),
      notificationAcknowledged: acknowledgedAt !== undefined && acknowledgedAt !== null,
      notificationAcknowledgedAt: acknowledgedAt ? toIso(acknowledgedAt) : null,
      pardon: pardon ? { ...pardon, pardonedAt: toIso(pardon.pardonedAt) } : null,
      activeLinkedBans: await stores.evasion.activeLinkedBans(networkId, id),
    };
  });

  app.get('/networks/:network/players/:id', async (request) => {
    const networkId = await networkOf(request.params);
    const { id } = parseOrThrow(networkAndId, request.params, 'path');
    const player = await stores.players.find(networkId, id);
    if (!player) throw notFound(`player ${id} not found`);
    const nowMs = clock.now();
    const addresses = await stores.playerIps.addressesOf(networkId, player.uuid, Number.MIN_SAFE_INTEGER);
    const linked = [];
    for (const account of await linkedAccounts(stores, context.evasion, networkId, player.uuid, nowMs)) {
      linked.push({
        uuid: account.uuid,
        name: (await stores.players.findName(networkId, account.uuid)) ?? '',
        sharedIps: account.sharedIps.map((shared) => ({ ipAddress: shared.ip, lastSeenAt: toIso(shared.lastSeenAt) })),
      });
    }
    return {
      ...player,
      lastLoginAt: player.lastLoginAt === null ? null : toIso(player.lastLoginAt),
      // Every address recorded, however old; `linked` applies the threshold and the link expiry.
      addresses: addresses.map((address) => ({
        ipAddress: address.ip,
        firstSeenAt: toIso(address.firstSeenAt),
        lastSeenAt: toIso(address.lastSeenAt),
      })),
      linked,
    };
  });

  app.get('/networks/:network/migrations', async (request) => {
    const networkId = await networkOf(request.params);
    return {
      migrations: await stores.migrations.uploads(networkId),
      progressReports: await stores.migrations.reports(networkId),
    };
  });
}
