import type { Ticket } from '../../src/api/schemas.js';
import type { CommandHandler, CommandInvocation, CommandSender } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatTimestamp } from './format.js';
import { asPlayer, sameUuid } from './sender.js';
import { TICKETS_OTHERS_PERMISSION } from './ticket-access.js';

/** `/ticket <id>`: one ticket with its replies; a player's own, or any with `bailiff.tickets.others`. */
export function ticketCommand(deps: CommandDeps): CommandHandler {
  return { execute: (invocation) => showTicket(deps, invocation) };
}

async function showTicket(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [id] = args;
  if (id === undefined || args.length > 1) throw new CommandUsageError();
  let ticket: Ticket;
  try {
    ({ ticket } = await deps.client.getTicket({ id }));
  } catch (error) {
    return reportFailure(sender, deps, error, 'ticket');
  }
  const self = asPlayer(sender);
  if (self && !sameUuid(ticket.creatorUuid, self.uuid) && !sender.hasPermission(TICKETS_OTHERS_PERMISSION)) {
    sender.sendMessage(deps.messages.render('commands.ticket.others-denied', { id }));
    return;
  }
  printTicket(deps, sender, ticket);
}

function printTicket(deps: CommandDeps, sender: CommandSender, ticket: Ticket): void {
  const render = deps.messages.render.bind(deps.messages);
  sender.sendMessage(
    render('commands.ticket.header', {
      id: ticket.id,
      subject: ticket.subject,
      status: ticket.status,
      priority: ticket.priority,
      type: ticket.type,
    }),
  );
  sender.sendMessage(
    render('commands.ticket.meta', {
      creator: ticket.creatorName,
      reported: ticket.reportedPlayerName ?? '-',
      created: formatTimestamp(Date.parse(ticket.createdAt)),
    }),
  );
  sender.sendMessage(render('commands.ticket.description', { description: ticket.description }));
  if (ticket.replies.length === 0) {
    sender.sendMessage(render('commands.ticket.no-replies'));
    return;
  }
  for (const reply of ticket.replies) {
    sender.sendMessage(
      render('commands.ticket.reply', {
        author: reply.authorName,
        message: reply.message,
        created: formatTimestamp(Date.parse(reply.createdAt)),
      }),
    );
  }
}
