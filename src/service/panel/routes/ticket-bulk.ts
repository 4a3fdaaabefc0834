import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../../http/errors.js';
import { storedId } from '../../limits.js';
import { ticketEvent } from '../../webhooks/events.js';
import { formBody } from '../form-errors.js';
import { requireStaff, staffOf } from '../guard.js';
import type { PanelContext } from '../panel-context.js';

/** Most tickets one bulk action takes: a page of the list. */
export const MAX_BULK_TICKETS = 50;

const bulkForm = z.discriminatedUnion('action', [
  z.object({ action: z.literal('assign'), assignee: z.string().max(64).default('') }),
  z.object({ action: z.literal('close') }),
]);
const ticketIds = z
  .union([storedId, z.array(storedId)])
  .transform((ids) => [...new Set(Array.isArray(ids) ? ids : [ids])])
  .pipe(z.array(z.string()).min(1).max(MAX_BULK_TICKETS, `at most ${MAX_BULK_TICKETS} tickets at once`));

/**
 * The ticket list's bulk actions (`manage-tickets`): assign the ticked tickets to one staff member
 * (or nobody), or close them. Each ticket is written and audited as its own page would; one the
 * network does not have, or (closing) one closed already, is counted as skipped.
 */
export function registerTicketBulkRoutes(app: FastifyInstance, panel: PanelContext): void {
  const context = panel.service;
  const { storage, stores, clock } = context;

  app.post('/tickets/bulk', { preHandler: requireStaff(panel, 'manage-tickets') }, async (request, reply) => {
    const staff = staffOf(request);
    const body = formBody(request.body);
    const ids = ticketIds.safeParse(body.ids);
    if (!ids.success) throw new HttpError(400, 'tick between 1 and 50 tickets of the list');
    const form = bulkForm.safeParse(body);
    if (!form.success) throw new HttpError(400, 'choose "Assign" or "Close" for the ticked tickets');
    const nowMs = clock.now();
    const audit = (action: string, subject: string, detail?: Record<string, unknown>) =>
      stores.auditLog.record({
        networkId: staff.networkId,
        actor: staff.username,
        via: 'panel',
        action,
        subject,
        ...(detail ? { detail } : {}),
        atMs: nowMs,
      });
    let done = 0;
    if (form.data.action === 'assign') {
      const wanted = form.data.assignee;
      const accounts = await stores.panelAccounts.ofNetworkAndSuperusers(staff.networkId);
      if (wanted !== '' && !accounts.some((account) => account.username === wanted)) {
        throw new HttpError(400, 'assignee: must be a staff member of this network');
      }
      for (const id of ids.data) {
        if (!(await stores.ticketList.assign(staff.networkId, id, wanted || null, nowMs))) continue;
        await audit('ticket.assign', id, { assignee: wanted || null, bulk: true });
        done += 1;
      }
      return reply.redirect(`/panel/tickets?assigned=${done}&skipped=${ids.data.length - done}`, 303);
    }
    for (const id of ids.data) {
      const closed = await storage.transaction(async (stores) => {
        const outcome = await stores.tickets.close(staff.networkId, id, { name: staff.username, reason: null }, nowMs);
        if (outcome.outcome !== 'closed') return false;
        const facts = await stores.tickets.factsOf(staff.networkId, id);
        if (facts) {
          const event = ticketEvent('ticket.closed', facts, staff.username, facts.subject, nowMs);
          await context.webhooks.record(staff.networkId, [event], stores);
        }
        return true;
      });
      if (!closed) continue;
      await audit('ticket.close', id, { bulk: true });
      done += 1;
    }
    return reply.redirect(`/panel/tickets?closed=${done}&skipped=${ids.data.length - done}`, 303);
  });
}
