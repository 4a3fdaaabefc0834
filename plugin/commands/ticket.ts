import { z } from 'zod';
import { isApiError } from '../../src/api/errors.js';
import { chatLine, type Ticket } from '../../src/contract/schemas.js';
import type { CommandHandler, CommandSender } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { playerWritten } from '../messages/player-text.js';
import { startsWith } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatTimestamp } from './format.js';
import { askForSender } from './player-call.js';
import { asPlayer, sameUuid } from './sender.js';
import { TICKETS_OTHERS_PERMISSION } from './ticket-access.js';
import { replyToTicket } from './ticket-reply.js';

/**
 * `/ticket <id>`: one ticket with its replies; a player's own, or any with `bailiff.tickets.others`.
 * `/ticket <id> reply <text...>`: a reply to one's own ticket.
 */
export function ticketCommand(deps: CommandDeps): CommandHandler {
  return {
    execute: (invocation) => {
      const [id, subcommand, ...words] = invocation.args;
      if (id === undefined) throw new CommandUsageError();
      if (subcommand === undefined) return showTicket(deps, invocation.sender, id);
      if (subcommand.toLowerCase() !== 'reply' || words.length === 0) throw new CommandUsageError();
      return replyToTicket(deps, invocation.sender, id, words);
    },
    tabComplete: ({ args }) => (args.length === 2 ? startsWith(['reply'], args[1] ?? '') : []),
  };
}

async function showTicket(deps: CommandDeps, sender: CommandSender, id: string): Promise<void> {
  const self = asPlayer(sender);
  // A player without the permission reads their own tickets only, and asks the service as such.
  const reader = self && !sender.hasPermission(TICKETS_OTHERS_PERMISSION) ? self : undefined;
  // "Not yours" and "no such ticket" read the same, so guessing ids tells a player nothing.
  const notFound = () =>
    sender.sendMessage(deps.messages.render('commands.ticket.not-found', { id: playerWritten(id) }));
  let ticket: Ticket;
  try {
    const payload = { id, ...(reader ? { query: { readerUuid: reader.uuid } } : {}) };
    const answer = await askForSender(deps, sender, `ticket ${id}`, (options) =>
      deps.client.getTicket(payload, options),
    );
    if (answer === undefined) return;
    ({ ticket } = answer);
  } catch (error) {
    if (isApiError(error) && error.kind === 'http' && error.status === 404) return notFound();
    return reportFailure(sender, deps, error, 'ticket');
  }
  if (reader && !sameUuid(ticket.creatorUuid, reader.uuid)) return notFound();
  printTicket(deps, sender, ticket);
}

/** The chat lines a chat report carries (the ticket creation extension's `chatMessages`), when the answer has them. */
function printChatLines(deps: CommandDeps, sender: CommandSender, ticket: Ticket): void {
  const parsed = z.array(chatLine).safeParse((ticket as { chatMessages?: unknown }).chatMessages);
  if (!parsed.success || parsed.data.length === 0) return;
  const render = deps.messages.render.bind(deps.messages);
  sender.sendMessage(render('commands.ticket.chat-header', { count: parsed.data.length }));
  for (const line of parsed.data) {
    sender.sendMessage(
      render('commands.ticket.chat-line', {
        sent: new Date(Date.parse(line.sentAt)).toISOString().slice(11, 19),
        player: playerWritten(line.playerName),
        message: playerWritten(line.message),
      }),
    );
  }
}

function printTicket(deps: CommandDeps, sender: CommandSender, ticket: Ticket): void {
  const render = deps.messages.render.bind(deps.messages);
  sender.sendMessage(
    render('commands.ticket.header', {
      id: ticket.id,
      subject: playerWritten(ticket.subject),
      status: ticket.status,
      priority: ticket.priority,
      type: ticket.type,
    }),
  );
  sender.sendMessage(
    render('commands.ticket.meta', {
      creator: playerWritten(ticket.creatorName),
      reported: playerWritten(ticket.reportedPlayerName ?? '-'),
      created: formatTimestamp(Date.parse(ticket.createdAt), deps.messages.locale),
    }),
  );
  sender.sendMessage(render('commands.ticket.description', { description: playerWritten(ticket.description) }));
  printChatLines(deps, sender, ticket);
  if (ticket.replies.length === 0) {
    sender.sendMessage(render('commands.ticket.no-replies'));
    return;
  }
  for (const reply of ticket.replies) {
    sender.sendMessage(
      render('commands.ticket.reply', {
        author: playerWritten(reply.authorName),
        message: playerWritten(reply.message),
        created: formatTimestamp(Date.parse(reply.createdAt), deps.messages.locale),
      }),
    );
  }
}
