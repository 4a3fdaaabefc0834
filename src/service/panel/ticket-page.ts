import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatLine } from '../../contract/schemas.js';
import { findTypeRule } from '../rules/catalogue.js';
import { chatLogAroundQuery } from './chat-log-view.js';
import type { FieldErrors } from './form-errors.js';
import { staffOf } from './guard.js';
import type { PanelContext } from './panel-context.js';
import { shownDate } from './public/public-rows.js';
import { punishFormOptions } from './punish-form.js';
import { lengthText } from './punishment-view.js';
import { visitorInput } from './redact-addresses.js';
import { renderStaffPage } from './render.js';
import { DEFAULT_CLOSE_REPLY } from './ticket-punish.js';

/** A chat line's time to the second (the page shows who said what, and when). */
const lineTime = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

/**
 * The ticket page: the ticket, a chat report's lines with their times, links to the reporting and
 * reported players' pages, the punishments issued from it, its replies, and (with `punish`) the
 * punish form whose preview and confirm are the player page's. A refused form comes back with its
 * errors and values.
 */
export async function renderTicketPage(
  panel: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  form: { errors?: FieldErrors; values?: Record<string, unknown> } = {},
  statusCode = 200,
): Promise<FastifyReply> {
  const { stores, rules } = panel.service;
  const staff = staffOf(request);
  const ticket = await stores.tickets.find(staff.networkId, id);
  if (!ticket) return renderStaffPage(panel, request, reply, 'tickets/missing', { title: 'No such ticket', id }, 404);
  const reportedUuid =
    ticket.reportedPlayerUuid ??
    (ticket.reportedPlayerName
      ? (await stores.players.findByName(staff.networkId, ticket.reportedPlayerName))?.uuid
      : undefined) ??
    null;
  const [assignee, appeal, accounts, punishments] = await Promise.all([
    stores.ticketList.assigneeOf(staff.networkId, id),
    stores.appeals.byTicket(staff.networkId, id),
    stores.panelAccounts.ofNetworkAndSuperusers(staff.networkId),
    stores.tickets.punishmentsOf(staff.networkId, id),
  ]);
  const errors = form.errors ?? {};
  const chatMessages = (ticket as { chatMessages?: ChatLine[] }).chatMessages ?? [];
  // With view-chat-log, each line links to its player's log around its time.
  const knownUuids = new Map<string, string | null>();
  if (reportedUuid && ticket.reportedPlayerName) knownUuids.set(ticket.reportedPlayerName.toLowerCase(), reportedUuid);
  knownUuids.set(ticket.creatorName.toLowerCase(), ticket.creatorUuid);
  const logLinkOf = async (line: ChatLine): Promise<string | null> => {
    if (!staff.permissions.has('view-chat-log')) return null;
    const name = line.playerName.toLowerCase();
    if (!knownUuids.has(name)) {
      knownUuids.set(name, (await stores.players.findByName(staff.networkId, line.playerName))?.uuid ?? null);
    }
    const uuid = knownUuids.get(name);
    const atMs = Date.parse(line.sentAt);
    return uuid ? `/panel/players/${uuid}?${chatLogAroundQuery(atMs)}#chat-log` : null;
  };
  const chatLines = [];
  for (const line of chatMessages)
    chatLines.push({ ...line, time: lineTime(line.sentAt), logLink: await logLinkOf(line) });
  return renderStaffPage(
    panel,
    request,
    reply,
    'tickets/ticket',
    {
      title: `Ticket ${ticket.subject}`,
      ticket,
      created: shownDate(Date.parse(ticket.createdAt)),
      chatLines,
      reporter: { uuid: ticket.creatorUuid, name: ticket.creatorName },
      reported:
        ticket.reportedPlayerName || reportedUuid
          ? { uuid: reportedUuid, name: ticket.reportedPlayerName ?? reportedUuid }
          : null,
      punishments: punishments.map((item) => ({
        ...item,
        type: findTypeRule(rules, item.typeOrdinal)?.title ?? `type ${item.typeOrdinal}`,
        length: lengthText(item.durationMs),
        created: shownDate(item.createdAtMs),
      })),
      replies: ticket.replies.map((item) => ({ ...item, created: shownDate(Date.parse(item.createdAt)) })),
      assignee,
      assignees: accounts.map((account) => account.username),
      appeal: appeal && { ...appeal, decided: appeal.decidedAt === null ? null : shownDate(appeal.decidedAt) },
      form: punishFormOptions(rules),
      values: visitorInput(form.values ?? {}),
      defaultCloseReply: DEFAULT_CLOSE_REPLY,
      errors,
      isOpen: ticket.status.toLowerCase() !== 'closed',
    },
    Object.keys(errors).length > 0 ? Math.max(statusCode, 400) : statusCode,
  );
}
