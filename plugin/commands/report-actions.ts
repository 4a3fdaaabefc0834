import { isApiError } from '../../src/api/errors.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { playerWritten } from '../messages/player-text.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { asPlayer } from './sender.js';

/** Who claims or closes from the console: no player, so a fixed UUID under the name Console. */
export const CONSOLE_STAFF = { uuid: '00000000-0000-0000-0000-000000000000', name: 'Console' } as const;

type StaffAction = 'claimTicket' | 'closeTicket' | 'staffReplyToTicket';

/** The staff member acting: the player sending the command, or {@link CONSOLE_STAFF}. */
export function staffOf(sender: CommandSender): { uuid: string; name: string } {
  const player = asPlayer(sender);
  return player ? { uuid: player.uuid, name: player.name } : CONSOLE_STAFF;
}

const is404 = (error: unknown) => isApiError(error) && error.kind === 'http' && error.status === 404;
const is409 = (error: unknown) => isApiError(error) && error.kind === 'http' && error.status === 409;

/** Whether the service is known (or now found) to offer the staff report routes; the list route decides. */
export async function staffRoutesOffered(deps: CommandDeps): Promise<boolean> {
  const { extensions } = deps.client;
  const known = extensions.state('listTickets');
  if (known.state === 'offered') return true;
  if (extensions.isMissing('listTickets', deps.clock.now())) return false;
  try {
    await deps.client.listTickets({ pageSize: 1 });
    return true;
  } catch (error) {
    return !is404(error);
  }
}

/**
 * Tells the sender why a claim, close or reply failed. A 404 is a missing ticket when the service
 * has the routes (its list answers), so the action is recorded as offered again; else "not offered".
 */
async function reportActionFailure(
  deps: CommandDeps,
  sender: CommandSender,
  action: StaffAction,
  id: string,
  error: unknown,
): Promise<void> {
  const render = deps.messages.render.bind(deps.messages);
  if (is409(error) && isApiError(error)) {
    sender.sendMessage(render('commands.reports.conflict', { message: playerWritten(error.serviceMessage ?? '') }));
    return;
  }
  if (!is404(error)) return reportFailure(sender, deps, error, 'reports');
  if (await staffRoutesOffered(deps)) {
    deps.client.extensions.markOffered(action);
    sender.sendMessage(render('commands.reports.not-found', { id: playerWritten(id) }));
    return;
  }
  sender.sendMessage(render('commands.reports.unsupported'));
}

export async function claimReport(deps: CommandDeps, sender: CommandSender, id: string): Promise<void> {
  const staff = staffOf(sender);
  try {
    await deps.client.claimTicket({ id, body: { staffName: staff.name, staffUuid: staff.uuid } });
  } catch (error) {
    return reportActionFailure(deps, sender, 'claimTicket', id, error);
  }
  sender.sendMessage(deps.messages.render('commands.reports.claimed', { id }));
}

export async function closeReport(deps: CommandDeps, sender: CommandSender, id: string, reason: string): Promise<void> {
  const staff = staffOf(sender);
  const body = {
    staffName: staff.name,
    ...(asPlayer(sender) ? { staffUuid: staff.uuid } : {}),
    ...(reason === '' ? {} : { reason }),
  };
  try {
    await deps.client.closeTicket({ id, body });
  } catch (error) {
    return reportActionFailure(deps, sender, 'closeTicket', id, error);
  }
  sender.sendMessage(deps.messages.render('commands.reports.closed', { id }));
}

/**
 * Sends a staff reply. The service keeps a notice for the ticket's creator; when they are online
 * here they see it now and it is acknowledged, else another server's poll shows it to them there
 * at once, or the login check at their next join.
 */
export async function replyToReport(deps: CommandDeps, sender: CommandSender, id: string, text: string): Promise<void> {
  const staff = staffOf(sender);
  const body = { staffName: staff.name, ...(asPlayer(sender) ? { staffUuid: staff.uuid } : {}), message: text };
  let answer: Awaited<ReturnType<CommandDeps['client']['staffReplyToTicket']>>;
  try {
    answer = await deps.client.staffReplyToTicket({ id, body });
  } catch (error) {
    return reportActionFailure(deps, sender, 'staffReplyToTicket', id, error);
  }
  const render = deps.messages.render.bind(deps.messages);
  const notice = { id: answer.notificationId, playerUuid: answer.creatorUuid, message: answer.notification };
  const creator = deps.offerNotice(notice);
  if (!creator) {
    sender.sendMessage(render('commands.reports.replied-later', { id }));
    return;
  }
  sender.sendMessage(render('commands.reports.replied-now', { id, player: playerWritten(creator.name) }));
}
