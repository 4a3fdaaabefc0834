import { isApiError, isTransient } from '../../src/api/errors.js';
import type { DynamicCreateBody, PreviewResponse, Severity, Ticket } from '../../src/contract/schemas.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { playerWritten } from '../messages/player-text.js';
import type { CommandDeps } from './deps.js';
import { refuseExempt } from './exemption.js';
import { reportFailure } from './failures.js';
import { formatOutcome } from './format.js';
import { issuePunishment } from './issue-punishment.js';
import { makeWayFor } from './make-way.js';
import { registerPreEmptive } from './register-pre-emptive.js';
import { closeReport, replyToReport } from './report-actions.js';
import { resolveAnyTarget, resolveTypeArgument } from './resolve-arguments.js';

/** `/reports punish` punishes as `/punish` does, so it asks for the same permission beside `bailiff.reports`. */
export const PUNISH_PERMISSION = 'bailiff.punish';

/** What `/reports punish <id> <type> [severity] [reason...]` asks for. */
export interface PunishReportRequest {
  id: string;
  type: string;
  severity: Severity;
  reason: string;
}

async function reportOf(deps: CommandDeps, sender: CommandSender, id: string): Promise<Ticket | undefined> {
  try {
    return (await deps.client.getTicket({ id })).ticket;
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) {
      sender.sendMessage(deps.messages.render('commands.reports.not-found', { id: playerWritten(id) }));
      return undefined;
    }
    reportFailure(sender, deps, error, 'reports');
    return undefined;
  }
}

/**
 * Punish and close, as the panel's ticket page offers it: the report's reported player is punished
 * as `/punish` does (preview shown, applied here at once), the punishment names the report
 * (`attachedTicketIds`, so the panel links them both ways), then the reporter is sent the
 * `punish-reply` line (told in game) and the report is closed. A punishment that has to wait for
 * the service leaves the report open, and says so.
 */
export async function punishReport(deps: CommandDeps, sender: CommandSender, request: PunishReportRequest) {
  const render = deps.messages.render.bind(deps.messages);
  if (!sender.hasPermission(PUNISH_PERMISSION)) {
    sender.sendMessage(render('commands.reports.punish-not-allowed', { permission: PUNISH_PERMISSION }));
    return;
  }
  const ticket = await reportOf(deps, sender, request.id);
  if (!ticket) return;
  if (ticket.status.toLowerCase() === 'closed') {
    sender.sendMessage(render('commands.reports.punish-closed', { id: playerWritten(ticket.id) }));
    return;
  }
  const reported = ticket.reportedPlayerName ?? ticket.reportedPlayerUuid;
  if (!reported) {
    sender.sendMessage(render('commands.reports.no-reported', { id: playerWritten(ticket.id) }));
    return;
  }
  const resolved = await resolveAnyTarget(deps, sender, reported);
  if (!resolved || refuseExempt(deps, sender, resolved.player)) return;
  const target = resolved.player;
  const type = await resolveTypeArgument(deps, sender, request.type);
  if (!type) return;
  const flags = { silent: false, replace: false };
  if (!(await makeWayFor(deps, sender, target, deps.records.actionOfType(type.ordinal), flags))) return;
  await registerPreEmptive(deps, resolved);

  const { severity } = request;
  let preview: PreviewResponse | undefined;
  try {
    preview = await deps.client.previewPunishment({ playerUuid: target.uuid, typeOrdinal: type.ordinal });
    sender.sendMessage(
      render('commands.punish.outcome', {
        player: target.name,
        type: type.title,
        severity,
        outcome: formatOutcome(preview[severity]),
        level: preview.offenseLevel,
      }),
    );
  } catch (error) {
    if (!isTransient(error)) return reportFailure(sender, deps, error, 'preview');
  }
  const body: DynamicCreateBody = {
    targetUuid: target.uuid,
    typeOrdinal: type.ordinal,
    issuerName: sender.name,
    severity,
    reason: request.reason === '' ? ticket.subject : request.reason,
    attachedTicketIds: [ticket.id],
  };
  const punishmentId = await issuePunishment(deps, sender, {
    body,
    target,
    durationMs: preview?.[severity].duration,
    silent: false,
    messages: { created: 'commands.punish.created', queued: 'commands.punish.queued' },
    placeholders: { player: target.name, type: type.title },
    action: 'punish',
  });
  if (punishmentId === undefined) {
    sender.sendMessage(render('commands.reports.punish-left-open', { id: playerWritten(ticket.id) }));
    return;
  }
  const answer = render('commands.reports.punish-reply', { player: playerWritten(target.name) });
  await replyToReport(deps, sender, ticket.id, answer);
  await closeReport(deps, sender, ticket.id, answer);
}
