import { isApiError } from '../../src/api/errors.js';
import { severity as severitySchema } from '../../src/contract/schemas.js';
import { REPORT_TICKET_TYPES, type TicketListResponse } from '../../src/contract/staff-ticket-schemas.js';
import type { CommandHandler, CommandInvocation, CommandSender } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { playerWritten } from '../messages/player-text.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatTimestamp } from './format.js';
import { claimReport, closeReport, replyToReport } from './report-actions.js';
import { type PunishReportRequest, punishReport } from './report-punish.js';

export const REPORTS_PAGE_SIZE = 8;
const SUBCOMMANDS = ['claim', 'close', 'reply', 'punish'] as const;
const SEVERITIES = severitySchema.options;

/** What `/reports ...` asks for. */
export type ReportsRequest =
  | { action: 'list'; page: number }
  | { action: 'claim'; id: string }
  | { action: 'close'; id: string; reason: string }
  | { action: 'reply'; id: string; text: string }
  | ({ action: 'punish' } & PunishReportRequest);

/** Reads the arguments of `/reports`; a usage error for anything else. */
export function parseReportsArgs(args: readonly string[]): ReportsRequest {
  const [first, id, ...rest] = args;
  if (first === undefined) return { action: 'list', page: 1 };
  if (/^[1-9]\d{0,5}$/.test(first) && args.length === 1) return { action: 'list', page: Number(first) };
  const text = rest.join(' ').trim();
  switch (first.toLowerCase()) {
    case 'claim':
      if (id === undefined || rest.length > 0) throw new CommandUsageError('usage: /reports claim <id>');
      return { action: 'claim', id };
    case 'close':
      if (id === undefined) throw new CommandUsageError('usage: /reports close <id> [reason]');
      return { action: 'close', id, reason: text };
    case 'reply':
      if (id === undefined || text === '') throw new CommandUsageError('usage: /reports reply <id> <text>');
      return { action: 'reply', id, text };
    case 'punish': {
      const [type, third, ...more] = rest;
      if (id === undefined || type === undefined) {
        throw new CommandUsageError('usage: /reports punish <id> <type> [lenient|regular|aggravated] [reason]');
      }
      const given = SEVERITIES.find((value) => value === third?.toLowerCase());
      const reasonWords = given === undefined && third !== undefined ? [third, ...more] : more;
      return { action: 'punish', id, type, severity: given ?? 'regular', reason: reasonWords.join(' ').trim() };
    }
    default:
      throw new CommandUsageError();
  }
}

/**
 * `/reports [page]`, `/reports claim <id>`, `/reports close <id> [reason]`, `/reports reply <id> <text>`,
 * `/reports punish <id> <type> [severity] [reason]` (punish the reported player and close).
 */
export function reportsCommand(deps: CommandDeps): CommandHandler {
  return {
    execute: (invocation) => reports(deps, invocation),
    tabComplete: ({ args }) =>
      args.length === 1 ? SUBCOMMANDS.filter((name) => name.startsWith((args[0] ?? '').toLowerCase())) : [],
  };
}

async function reports(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const request = parseReportsArgs(args);
  if (deps.client.extensions.isMissing('listTickets', deps.clock.now())) {
    sender.sendMessage(deps.messages.render('commands.reports.unsupported'));
    return;
  }
  switch (request.action) {
    case 'list':
      return listReports(deps, sender, request.page);
    case 'claim':
      return claimReport(deps, sender, request.id);
    case 'close':
      return closeReport(deps, sender, request.id, request.reason);
    case 'reply':
      return replyToReport(deps, sender, request.id, request.text);
    case 'punish':
      return punishReport(deps, sender, request);
  }
}

async function listReports(deps: CommandDeps, sender: CommandSender, page: number): Promise<void> {
  const render = deps.messages.render.bind(deps.messages);
  let answer: TicketListResponse;
  try {
    answer = await deps.client.listTickets({
      status: 'open',
      type: REPORT_TICKET_TYPES.join(','),
      page,
      pageSize: REPORTS_PAGE_SIZE,
    });
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) {
      sender.sendMessage(render('commands.reports.unsupported'));
      return;
    }
    return reportFailure(sender, deps, error, 'reports');
  }
  const pages = Math.max(1, Math.ceil(answer.total / REPORTS_PAGE_SIZE));
  if (answer.total === 0) {
    sender.sendMessage(render('commands.reports.none'));
    return;
  }
  if (answer.tickets.length === 0) {
    sender.sendMessage(render('commands.reports.no-page', { page, pages }));
    return;
  }
  sender.sendMessage(render('commands.reports.header', { total: answer.total, page, pages }));
  for (const ticket of answer.tickets) {
    sender.sendMessage(
      render('commands.reports.line', {
        id: ticket.id,
        reporter: playerWritten(ticket.creatorName),
        reported: playerWritten(ticket.reportedPlayerName ?? '-'),
        reason: playerWritten(ticket.excerpt),
        server: playerWritten(ticket.createdServer ?? '-'),
        created: formatTimestamp(Date.parse(ticket.createdAt), deps.messages.locale),
        holder:
          ticket.assigneeName === null
            ? render('commands.reports.unclaimed')
            : render('commands.reports.claimed-by', { staff: playerWritten(ticket.assigneeName) }),
      }),
    );
  }
  if (page < pages) sender.sendMessage(render('commands.reports.more', { next: page + 1 }));
}
