import { isApiError } from '../../src/api/errors.js';
import type { CommandHandler, CommandInvocation, Player } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { KnownPlayer } from '../identity/known-player.js';
import { ServiceLookup } from '../identity/service-lookup.js';
import { playerWritten } from '../messages/player-text.js';
import type { ReportKind } from '../players/report-cooldowns.js';
import { reportKey } from '../players/ticket-deliveries.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { leadingPlayerName } from './quoted-name.js';
import { CHAT_REPORT_DEFAULT_REASON, contractText, type Report, reportTicket } from './report-ticket.js';
import { asPlayer, sameUuid } from './sender.js';

/**
 * `/report <player> <reason...>` (kind `player`) and `/chatreport <player> [reason...]` (kind
 * `chat`, carrying the reported player's last lines as this server saw them): a ticket at the
 * service, stored in the outbox first so it is delivered once even when the service is away. A
 * name with spaces (a Bedrock gamertag) is written in double quotes.
 */
export function reportCommand(deps: CommandDeps, kind: ReportKind, completions?: Completions): CommandHandler {
  const lookup = new ServiceLookup(deps.client, deps.clock, deps.logger);
  return {
    execute: (invocation) => report(deps, kind, invocation, (name) => lookup.find(name)),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function report(
  deps: CommandDeps,
  kind: ReportKind,
  { sender, args }: CommandInvocation,
  fromService: (name: string) => Promise<KnownPlayer | undefined>,
): Promise<void> {
  const named = leadingPlayerName(args);
  if (named === undefined || (kind === 'player' && named.rest.length === 0)) throw new CommandUsageError();
  const { name: input, rest: words } = named;
  const render = deps.messages.render.bind(deps.messages);
  const reporter = asPlayer(sender);
  if (!reporter) return sender.sendMessage(render('commands.report.players-only'));
  if (input.toLowerCase() === reporter.name.toLowerCase()) return sender.sendMessage(render('commands.report.self'));

  const settings = deps.reports.settings();
  const typed = words.join(' ');
  const reason = contractText(typed, Number.POSITIVE_INFINITY) ?? (kind === 'chat' ? CHAT_REPORT_DEFAULT_REASON : '');
  if (reason === '') throw new CommandUsageError();
  if (reason.length > settings.maxReasonLength) {
    return sender.sendMessage(
      render('commands.report.reason-too-long', { length: reason.length, max: settings.maxReasonLength }),
    );
  }
  const waitMs = deps.reports.cooldowns.remainingMs(reporter.uuid, kind);
  if (waitMs > 0) {
    return sender.sendMessage(render('commands.report.cooldown', { seconds: Math.ceil(waitMs / 1000) }));
  }
  if (deps.client.extensions.isMissing('createTicket', deps.clock.now())) {
    return sender.sendMessage(render('commands.report.not-offered'));
  }
  // Taken before the first await, so reports typed in a burst cannot all pass; given back unless sent or queued.
  const { cooldowns } = deps.reports;
  cooldowns.started(reporter.uuid, kind);
  let accepted = false;
  try {
    const reported = deps.players.resolve(input) ?? (await fromService(input));
    if (!reported) {
      return sender.sendMessage(render('commands.report.unknown-player', { player: playerWritten(input) }));
    }
    if (sameUuid(reported.uuid, reporter.uuid)) return sender.sendMessage(render('commands.report.self'));
    const lines = kind === 'chat' ? deps.reports.recentChat.linesOf(reported.uuid) : [];
    if (kind === 'chat' && lines.length === 0) {
      return sender.sendMessage(render('commands.report.no-chat', { player: playerWritten(reported.name) }));
    }
    const self = { uuid: reporter.uuid, name: reporter.name };
    accepted = await send(deps, reporter, { kind, reporter: self, reported, reason, lines });
  } finally {
    if (!accepted) cooldowns.cleared(reporter.uuid, kind);
  }
}

/** Sends the report through the outbox and tells the reporter; true when it was sent or queued. */
async function send(deps: CommandDeps, sender: Player, report: Report): Promise<boolean> {
  const render = deps.messages.render.bind(deps.messages);
  const key = reportKey(report.reporter.uuid, deps.ids());
  const ticket = reportTicket(report);
  let outcome: Awaited<ReturnType<CommandDeps['outbox']['sendNow']>>;
  try {
    outcome = await deps.reports.deliveries.whileSending(key, () =>
      deps.outbox.sendNow({ operation: 'createTicket', payload: ticket }, { idempotencyKey: key }),
    );
  } catch (error) {
    reportFailure(sender, deps, error, 'report');
    return false;
  }
  const player = playerWritten(report.reported.name);
  if (outcome.kind === 'refused') {
    if (isApiError(outcome.error) && outcome.error.kind === 'http' && outcome.error.status === 404) {
      sender.sendMessage(render('commands.report.not-offered'));
    } else {
      reportFailure(sender, deps, outcome.error, 'report');
    }
    return false;
  }
  deps.logger.info('player report made', {
    reporter: report.reporter.name,
    reported: report.reported.name,
    kind: report.kind,
    delivered: outcome.kind === 'sent',
  });
  if (outcome.kind === 'queued') {
    sender.sendMessage(render('commands.report.queued', { player }));
    return true;
  }
  const ticketId = (outcome.response as { ticketId?: unknown } | undefined)?.ticketId;
  if (typeof ticketId === 'string') {
    deps.reportCreated({
      id: ticketId,
      reporterName: report.reporter.name,
      reportedName: report.reported.name,
      reason: ticket.description,
    });
  }
  sender.sendMessage(
    typeof ticketId === 'string'
      ? render('commands.report.sent', { player, id: ticketId })
      : render('commands.report.sent-without-id', { player }),
  );
  return true;
}
