import { isApiError } from '../../src/api/errors.js';
import { MAX_TICKET_TEXT_LENGTH } from '../../src/contract/schemas.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import { playerWritten } from '../messages/player-text.js';
import { replyKey } from '../players/ticket-deliveries.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { contractText } from './report-ticket.js';
import { asPlayer } from './sender.js';

const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/**
 * `/ticket <id> reply <text...>`: the player's reply to their own ticket, stored in the outbox
 * first (sent once, with its `Idempotency-Key`) so it waits there when the service is away.
 */
export async function replyToTicket(deps: CommandDeps, sender: CommandSender, id: string, words: string[]) {
  const render = deps.messages.render.bind(deps.messages);
  const player = asPlayer(sender);
  if (!player) return sender.sendMessage(render('commands.ticket.reply-players-only'));
  const message = contractText(words.join(' '), Number.POSITIVE_INFINITY);
  if (message === undefined) return sender.sendMessage(render('commands.ticket.reply-empty'));
  // Refused whole, never cut: the player is told what was not sent and why.
  if (message.length > MAX_TICKET_TEXT_LENGTH) {
    return sender.sendMessage(
      render('commands.ticket.reply-too-long', { length: message.length, max: MAX_TICKET_TEXT_LENGTH }),
    );
  }
  if (deps.client.extensions.isMissing('createTicket', deps.clock.now())) {
    return sender.sendMessage(render('commands.ticket.replies-not-offered'));
  }
  const key = replyKey(player.uuid, deps.ids(), id);
  // No ticket has an id this long; the key would be longer than Idempotency-Key allows.
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    return sender.sendMessage(render('commands.ticket.not-found', { id: playerWritten(id) }));
  }
  const payload = { id, body: { playerUuid: player.uuid, playerName: player.name, message } };
  let outcome: Awaited<ReturnType<CommandDeps['outbox']['sendNow']>>;
  try {
    // A reply is a call the player triggers: held to their cooldown (players.callCooldownMs), never cached.
    const call = await deps.playerCalls.run(player.uuid, `reply ${key}`, () =>
      deps.reports.deliveries.whileSending(key, () =>
        // Replies to one ticket reach it in the order they were written.
        deps.outbox.sendNow(
          { operation: 'replyToTicket', payload },
          { idempotencyKey: key, orderingKey: `ticket:${id}` },
        ),
      ),
    );
    if (call.kind !== 'answer') {
      const seconds = Math.max(1, Math.ceil(call.retryInMs / 1000));
      const busy = call.kind === 'cooldown' ? 'commands.player-calls.slow-down' : 'commands.player-calls.busy';
      return sender.sendMessage(render(busy, { seconds }));
    }
    outcome = call.value;
  } catch (error) {
    return reportFailure(sender, deps, error, 'ticket');
  }
  const shownId = playerWritten(id);
  switch (outcome.kind) {
    case 'sent':
      return sender.sendMessage(render('commands.ticket.reply-sent', { id: shownId }));
    case 'queued':
      return sender.sendMessage(render('commands.ticket.reply-queued', { id: shownId }));
    case 'refused':
      // Someone else's ticket answers as a missing one, so ids cannot be probed.
      if (isApiError(outcome.error) && outcome.error.kind === 'http' && outcome.error.status === 404) {
        return sender.sendMessage(render('commands.ticket.not-found', { id: shownId }));
      }
      return reportFailure(sender, deps, outcome.error, 'ticket');
  }
}
