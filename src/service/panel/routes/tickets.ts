import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { storedId } from '../../limits.js';
import { TICKET_PAGE_START } from '../../store/ports/ticket-list.js';
import { recordStaffReply } from '../../tickets/staff-reply.js';
import { ticketEvent } from '../../webhooks/events.js';
import { appealDecision } from '../appeals/appeal-limits.js';
import { decideAppeal } from '../appeals/decide-appeal.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';
import { parseCursor, shownDate } from '../public/public-rows.js';
import { renderStaffPage } from '../render.js';
import { renderTicketPage } from '../ticket-page.js';
import { MAX_REPLY_LENGTH } from '../ticket-punish.js';
import { registerTicketBulkRoutes } from './ticket-bulk.js';

export const TICKET_PAGE_SIZE = 50;
export { MAX_REPLY_LENGTH };

const TICKET_STATUSES = ['Open', 'Closed'] as const;

const ticketParams = z.object({ id: storedId });
const listQuery = z.object({
  status: z.enum(['', ...TICKET_STATUSES]).optional(),
  type: z.string().max(64).optional(),
  assignee: z.string().max(64).optional(),
  before: z.string().optional(),
});
const replyForm = z.object({
  message: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_REPLY_LENGTH, `must be at most ${MAX_REPLY_LENGTH} characters`),
});
const statusForm = z.object({ status: z.enum(TICKET_STATUSES) });
const assignForm = z.object({ assignee: z.string().max(64) });
/** What the bulk actions report back to the list (`?closed=3&skipped=1`). */
const bulkOutcome = z.object({
  closed: z.coerce.number().int().min(0).optional(),
  assigned: z.coerce.number().int().min(0).optional(),
  skipped: z.coerce.number().int().min(0).optional(),
});
/** The assignee filter's value for tickets assigned to nobody. */
const NOBODY = '-';

/**
 * Tickets: the filterable list (status, type, assignee), a ticket with its replies, and the writes
 * of `manage-tickets` (reply, close, reopen, assign; accept or deny an appeal, accepting needs
 * `pardon` too). Every write lands in the audit log.
 */
export function registerTicketRoutes(app: FastifyInstance, panel: PanelContext): void {
  const context = panel.service;
  const { stores, clock, ids, webhooks } = context;
  const canView = { preHandler: requireStaff(panel, 'view') };
  const canManage = { preHandler: requireStaff(panel, 'manage-tickets') };

  registerTicketBulkRoutes(app, panel);

  app.get('/tickets', canView, async (request, reply) => {
    const staff = staffOf(request);
    const parsed = listQuery.safeParse(request.query);
    const query = parsed.success ? parsed.data : {};
    const filter = {
      ...(query.status ? { status: query.status } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.assignee ? { assignee: query.assignee === NOBODY ? '' : query.assignee } : {}),
    };
    const cursor = parseCursor(query.before) ?? TICKET_PAGE_START;
    const rows = await stores.ticketList.page(staff.networkId, filter, cursor, TICKET_PAGE_SIZE + 1);
    const shown = rows.slice(0, TICKET_PAGE_SIZE);
    const last = shown.at(-1);
    const keep = new URLSearchParams(
      Object.entries({ status: query.status, type: query.type, assignee: query.assignee }).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
      ),
    );
    if (last) keep.set('before', `${last.createdAt}.${last.position}`);
    const accounts = await stores.panelAccounts.ofNetworkAndSuperusers(staff.networkId);
    return renderStaffPage(panel, request, reply, 'tickets/list', {
      title: 'Tickets',
      tickets: shown.map((ticket) => ({ ...ticket, created: shownDate(ticket.createdAt) })),
      filter: { status: query.status ?? '', type: query.type ?? '', assignee: query.assignee ?? '' },
      statuses: TICKET_STATUSES,
      assignees: accounts.map((account) => account.username),
      nobody: NOBODY,
      nextHref: rows.length > TICKET_PAGE_SIZE && last ? `/panel/tickets?${keep}` : null,
      done: bulkOutcome.safeParse(request.query).data ?? null,
    });
  });

  const ticketPage = (request: FastifyRequest, reply: FastifyReply, errors: Record<string, string> = {}) =>
    renderTicketPage(panel, request, reply, ticketParams.parse(request.params).id, { errors });

  app.get('/tickets/:id', canView, async (request, reply) => ticketPage(request, reply));

  const audit = (request: FastifyRequest, action: string, subject: string, detail?: Record<string, unknown>) => {
    const staff = staffOf(request);
    return stores.auditLog.record({
      networkId: staff.networkId,
      actor: staff.username,
      via: 'panel',
      action,
      subject,
      ...(detail ? { detail } : {}),
      atMs: clock.now(),
    });
  };

  /** The ticket of a write, in the staff member's network; a 404 page when it is not there. */
  async function writableTicket(request: FastifyRequest) {
    const staff = staffOf(request);
    const { id } = ticketParams.parse(request.params);
    const facts = await stores.tickets.factsOf(staff.networkId, id);
    return facts && { staff, id, facts };
  }

  const missing = (request: FastifyRequest, reply: FastifyReply) =>
    renderStaffPage(panel, request, reply, 'tickets/missing', { title: 'No such ticket' }, 404);
  const backTo = (reply: FastifyReply, id: string) => reply.redirect(`/panel/tickets/${encodeURIComponent(id)}`, 303);

  app.post('/tickets/:id/reply', canManage, async (request, reply) => {
    const target = await writableTicket(request);
    if (!target) return missing(request, reply);
    const form = replyForm.safeParse(request.body);
    if (!form.success) return ticketPage(request, reply, { message: form.error.issues[0]!.message });
    const nowMs = clock.now();
    const { networkId, username } = target.staff;
    // As a reply from the game or the admin API: the ticket's creator is told in game.
    const staffReply = { id: ids(), authorName: username, message: form.data.message };
    await context.storage.transaction((stores) =>
      recordStaffReply(context, stores, networkId, target.facts, staffReply, nowMs),
    );
    await audit(request, 'ticket.reply', target.id);
    return backTo(reply, target.id);
  });

  app.post('/tickets/:id/status', canManage, async (request, reply) => {
    const target = await writableTicket(request);
    if (!target) return missing(request, reply);
    const form = statusForm.safeParse(request.body);
    if (!form.success) return ticketPage(request, reply, { status: 'must be Open or Closed' });
    const nowMs = clock.now();
    const changed = await stores.tickets.setStatus(target.staff.networkId, target.id, form.data.status, nowMs);
    if (changed) {
      if (form.data.status === 'Closed') {
        const event = ticketEvent('ticket.closed', target.facts, target.staff.username, target.facts.subject, nowMs);
        await webhooks.record(target.staff.networkId, [event], stores);
      }
      await audit(request, form.data.status === 'Closed' ? 'ticket.close' : 'ticket.reopen', target.id);
    }
    return backTo(reply, target.id);
  });

  app.post('/tickets/:id/assign', canManage, async (request, reply) => {
    const target = await writableTicket(request);
    if (!target) return missing(request, reply);
    const form = assignForm.safeParse(request.body);
    const accounts = await stores.panelAccounts.ofNetworkAndSuperusers(target.staff.networkId);
    const wanted = form.success ? form.data.assignee : undefined;
    if (wanted === undefined || (wanted !== '' && !accounts.some((account) => account.username === wanted))) {
      return ticketPage(request, reply, { assignee: 'must be a staff member of this network' });
    }
    await stores.ticketList.assign(target.staff.networkId, target.id, wanted || null, clock.now());
    await audit(request, 'ticket.assign', target.id, { assignee: wanted || null });
    return backTo(reply, target.id);
  });

  app.post('/tickets/:id/appeal', canManage, async (request, reply) => {
    const target = await writableTicket(request);
    if (!target) return missing(request, reply);
    const form = appealDecision.safeParse(request.body);
    if (!form.success) {
      const issue = form.error.issues[0]!;
      return ticketPage(request, reply, { [issue.path[0] === 'answer' ? 'answer' : 'decision']: issue.message });
    }
    if (form.data.decision === 'accept' && !target.staff.permissions.has('pardon')) {
      throw new HttpError(
        403,
        `accepting an appeal pardons the punishment: your role (${target.staff.role}) does not have the "pardon" permission`,
      );
    }
    const outcome = await decideAppeal(context, {
      networkId: target.staff.networkId,
      ticketId: target.id,
      decision: form.data.decision,
      staff: { name: target.staff.username },
      answer: form.data.answer,
    });
    if (!outcome.ok) {
      const message = outcome.problem === 'already-decided' ? 'this appeal was already decided' : 'not an appeal';
      return ticketPage(request, reply, { decision: message });
    }
    await audit(request, outcome.status === 'accepted' ? 'appeal.accept' : 'appeal.deny', target.id, {
      punishmentId: outcome.punishmentId,
      pardoned: outcome.pardoned,
    });
    return backTo(reply, target.id);
  });
}
