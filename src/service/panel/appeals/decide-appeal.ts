import type { ServiceContext } from '../../context.js';
import { pardonPunishment } from '../../punishment-actions.js';
import { toIso } from '../../store/dates.js';
import { ticketEvent } from '../../webhooks/events.js';

export interface AppealDecisionRequest {
  networkId: number;
  ticketId: string;
  decision: 'accept' | 'deny';
  /** Who decided, as the panel names the staff member. */
  staff: { name: string };
  /** What the player reads on their appeal page. */
  answer: string;
}

export type AppealDecisionOutcome =
  | { ok: true; status: 'accepted' | 'denied'; punishmentId: string; pardoned: boolean }
  | { ok: false; problem: 'not-an-appeal' | 'already-decided' };

const CLOSED_STATUS = 'Closed';

/**
 * Staff accept or deny an appeal. The decision is claimed first (only an open appeal can be
 * decided, once); accepting then pardons the punishment as the pardon API does (its Linked Bans
 * with it, streamed to every server). The answer becomes a reply on the ticket, which is closed.
 */
export async function decideAppeal(
  context: ServiceContext,
  request: AppealDecisionRequest,
): Promise<AppealDecisionOutcome> {
  const { stores, clock, ids, webhooks } = context;
  const { networkId, ticketId, staff, answer } = request;
  const appeal = await stores.appeals.byTicket(networkId, ticketId);
  if (!appeal) return { ok: false, problem: 'not-an-appeal' };
  const nowMs = clock.now();
  const status = request.decision === 'accept' ? 'accepted' : 'denied';
  const claimed = await stores.appeals.decide({ networkId, ticketId, status, answer, decidedBy: staff.name, nowMs });
  if (!claimed) return { ok: false, problem: 'already-decided' };
  const pardoned =
    status === 'accepted' &&
    (await pardonPunishment(context, {
      networkId,
      id: appeal.punishmentId,
      issuerName: staff.name,
      reason: `appeal accepted (ticket ${ticketId})`,
      serverId: null,
    }));
  await context.storage.transaction(async (stores) => {
    await stores.tickets.saveReply(networkId, ticketId, {
      id: ids(),
      authorName: staff.name,
      message: answer,
      createdAt: toIso(nowMs, 'createdAt'),
    });
    await stores.tickets.setStatus(networkId, ticketId, CLOSED_STATUS, nowMs);
    const facts = await stores.tickets.factsOf(networkId, ticketId);
    if (!facts) return;
    const events = [
      ticketEvent('ticket.replied', facts, staff.name, answer, nowMs),
      ticketEvent('ticket.closed', facts, staff.name, answer, nowMs),
    ];
    await webhooks.record(networkId, events, stores);
  });
  return { ok: true, status, punishmentId: appeal.punishmentId, pardoned };
}
