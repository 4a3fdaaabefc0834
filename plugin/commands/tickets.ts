import type { TicketSummary } from '../../src/contract/schemas.js';
import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { KnownPlayer } from '../identity/known-player.js';
import { playerWritten } from '../messages/player-text.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatTimestamp } from './format.js';
import { askForSender } from './player-call.js';
import { resolveTarget } from './resolve-arguments.js';
import { asPlayer, sameUuid } from './sender.js';
import { TICKETS_OTHERS_PERMISSION } from './ticket-access.js';

/** `/tickets [player]`: a player's own tickets; another player's need `bailiff.tickets.others`. */
export function ticketsCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => listTickets(deps, invocation),
    tabComplete: ({ sender, args }) =>
      args.length === 1 && sender.hasPermission(TICKETS_OTHERS_PERMISSION)
        ? (completions?.players(args[0] ?? '') ?? [])
        : [],
  };
}

async function listTickets(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  if (args.length > 1) throw new CommandUsageError();
  const render = deps.messages.render.bind(deps.messages);
  const self = asPlayer(sender);
  let owner: KnownPlayer | undefined;
  if (args[0] === undefined) {
    if (!self) {
      sender.sendMessage(render('commands.tickets.console-needs-player'));
      return;
    }
    owner = { uuid: self.uuid, name: self.name };
  } else {
    owner = resolveTarget(deps, sender, args[0]);
    if (!owner) return;
  }
  if (self && !sameUuid(owner.uuid, self.uuid) && !sender.hasPermission(TICKETS_OTHERS_PERMISSION)) {
    sender.sendMessage(render('commands.tickets.others-denied'));
    return;
  }

  let tickets: TicketSummary[];
  try {
    const uuid = owner.uuid;
    const answer = await askForSender(deps, sender, `tickets ${uuid.toLowerCase()}`, (options) =>
      deps.client.getPlayerTickets({ uuid }, options),
    );
    if (answer === undefined) return;
    ({ tickets } = answer);
  } catch (error) {
    return reportFailure(sender, deps, error, 'tickets');
  }
  if (tickets.length === 0) {
    sender.sendMessage(render('commands.tickets.none', { player: owner.name }));
    return;
  }
  sender.sendMessage(render('commands.tickets.header', { player: owner.name, count: tickets.length }));
  for (const ticket of tickets) {
    sender.sendMessage(
      render('commands.tickets.line', {
        id: ticket.id,
        subject: playerWritten(ticket.subject),
        status: ticket.status,
        priority: ticket.priority,
        updated: formatTimestamp(Date.parse(ticket.updatedAt), deps.messages.locale),
      }),
    );
  }
}
