import { MAX_NOTES_LISTED } from '../../src/contract/staff-note-schemas.js';
import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { playerWritten } from '../messages/player-text.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatTimestamp } from './format.js';
import { notesNotOffered } from './note-calls.js';
import { resolveTarget } from './resolve-arguments.js';

/** Notes `/notes` shows, newest first (the header says how many there are in all). */
export const NOTES_SHOWN_IN_GAME = 10;

/** `/notes <player>`: the newest staff notes on a player, with author and time (UTC). */
export function notesCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => listNotes(deps, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function listNotes(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [playerArg] = args;
  if (playerArg === undefined || args.length > 1) throw new CommandUsageError();
  const target = resolveTarget(deps, sender, playerArg);
  if (!target) return;
  const render = deps.messages.render.bind(deps.messages);
  try {
    const limit = Math.min(NOTES_SHOWN_IN_GAME, MAX_NOTES_LISTED);
    const answer = await deps.client.playerNotes({ uuid: target.uuid, query: { limit } });
    if (answer.total === 0) {
      sender.sendMessage(render('commands.notes.none', { player: target.name }));
      return;
    }
    sender.sendMessage(
      render('commands.notes.header', { player: target.name, count: answer.total, shown: answer.notes.length }),
    );
    for (const note of answer.notes) {
      sender.sendMessage(
        render('commands.notes.line', {
          id: note.id,
          author: playerWritten(note.authorName),
          created: formatTimestamp(Date.parse(note.createdAt), deps.messages.locale),
          text: playerWritten(note.text),
        }),
      );
    }
  } catch (error) {
    if (notesNotOffered(error)) {
      sender.sendMessage(render('commands.notes.unsupported'));
      return;
    }
    reportFailure(sender, deps, error, 'notes');
  }
}
