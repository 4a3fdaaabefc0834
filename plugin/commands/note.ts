import { MAX_STAFF_NOTE_LENGTH } from '../../src/contract/staff-note-schemas.js';
import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { notesNotOffered } from './note-calls.js';
import { resolveTarget } from './resolve-arguments.js';
import { asPlayer } from './sender.js';

/**
 * `/note <player> <text>`: a staff note on a player, stored by the service for the network's staff
 * (the panel shows it beside the player's history); never shown to the player. Sent at once: a note
 * is not worth queueing, so an unreachable service is said and nothing is kept.
 */
export function noteCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => addNote(deps, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function addNote(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [playerArg, ...words] = args;
  const text = words.join(' ').trim();
  if (playerArg === undefined || text === '') throw new CommandUsageError();
  const render = deps.messages.render.bind(deps.messages);
  if (text.length > MAX_STAFF_NOTE_LENGTH) {
    sender.sendMessage(render('commands.note.too-long', { max: MAX_STAFF_NOTE_LENGTH }));
    return;
  }
  const target = resolveTarget(deps, sender, playerArg);
  if (!target) return;
  const staffUuid = asPlayer(sender)?.uuid;
  const body = { staffName: sender.name, ...(staffUuid ? { staffUuid } : {}), text };
  try {
    const answer = await deps.client.addPlayerNote({ uuid: target.uuid, body });
    sender.sendMessage(render('commands.note.added', { player: target.name, count: answer.total }));
  } catch (error) {
    if (notesNotOffered(error)) {
      sender.sendMessage(render('commands.note.unsupported'));
      return;
    }
    reportFailure(sender, deps, error, 'note');
  }
}
