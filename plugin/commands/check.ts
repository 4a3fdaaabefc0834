import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import { reasonText } from '../messages/reason.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { NOTE_PERMISSION, notesNotOffered } from './note-calls.js';
import { remainingText } from './remaining-text.js';
import { resolveAnyTarget } from './resolve-arguments.js';

/** `/check <player>`: the player's running ban and mute as this server knows them now. */
export function checkCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => check(deps, invocation),
    tabComplete: ({ args }) => (args.length === 1 ? (completions?.players(args[0] ?? '') ?? []) : []),
  };
}

async function check(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [playerArg] = args;
  if (playerArg === undefined || args.length > 1) throw new CommandUsageError();
  const target = (await resolveAnyTarget(deps, sender, playerArg))?.player;
  if (!target) return;
  const now = deps.clock.now();
  const render = deps.messages.render.bind(deps.messages);
  const line = (key: string, punishment: CachedPunishment) =>
    render(key, {
      issuer: punishment.issuerName || '-',
      reason: reasonText(deps.messages, punishment.reason),
      id: punishment.id,
      remaining: remainingText(deps.messages, punishment, now),
    });
  const ban = deps.records.activeBan(target.uuid, now);
  const mute = deps.records.activeMute(target.uuid, now);
  sender.sendMessage(render('commands.check.header', { player: target.name }));
  if (ban) sender.sendMessage(line('commands.check.ban', ban));
  if (mute) sender.sendMessage(line('commands.check.mute', mute));
  if (!ban && !mute) sender.sendMessage(render('commands.check.clean'));
  if (sender.hasPermission(NOTE_PERMISSION)) await tellNoteCount(deps, sender, target.uuid);
}

/** How many staff notes the player has, from the service, after what this server knows. */
async function tellNoteCount(deps: CommandDeps, sender: CommandInvocation['sender'], uuid: string): Promise<void> {
  // Known not to offer notes (a remembered 404): no line, no call.
  if (deps.client.extensions.isMissing('playerNotes', deps.clock.now())) return;
  try {
    const { total } = await deps.client.playerNotes({ uuid, query: { limit: 0 } });
    sender.sendMessage(deps.messages.render('commands.check.notes', { count: total }));
  } catch (error) {
    if (!notesNotOffered(error)) sender.sendMessage(deps.messages.render('commands.check.notes-unavailable'));
  }
}
