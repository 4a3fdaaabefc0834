import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { AppealAnswer } from '../appeals/appeal-codes.js';
import { typeTitle } from '../config/ordinal-defaults.js';
import { titleOf } from '../kinds/warning-status.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatTimestamp } from './format.js';
import { asPlayer } from './sender.js';

/**
 * `/appeal [id]`: a player who can join (muted, warned) gets their one-time appeal codes, told to
 * them alone: for each running mute, or for the punishment `id`. Codes already held are shown
 * again without asking the service; a question to it starts the player's `appeals.cooldownMs`.
 */
export function appealCommand(deps: CommandDeps): CommandHandler {
  return { execute: (invocation) => appeal(deps, invocation) };
}

async function appeal(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  if (args.length > 1) throw new CommandUsageError();
  const render = deps.messages.render.bind(deps.messages);
  const player = asPlayer(sender);
  if (!player) {
    sender.sendMessage(render('commands.appeal.players-only'));
    return;
  }
  const { codes, cooldowns } = deps.appeals;
  const now = deps.clock.now();
  if (!codes.isOffered(now)) {
    sender.sendMessage(render('commands.appeal.not-offered'));
    return;
  }
  const known = deps.records.history(player.uuid);
  const typeOf = (id: string) => {
    const punishment = known.find((row) => row.id === id);
    return punishment ? titleOf(punishment, typeTitle) : 'punishment';
  };
  const ids = args[0] !== undefined ? [args[0]] : deps.records.running(player.uuid, 'mute', now).map((row) => row.id);
  if (ids.length === 0) {
    sender.sendMessage(render('commands.appeal.none'));
    return;
  }
  if (ids.some((id) => codes.held(id, player.uuid, now) === undefined)) {
    const leftMs = cooldowns.remainingMs(player.uuid);
    if (leftMs > 0) {
      sender.sendMessage(render('commands.appeal.slow-down', { seconds: Math.max(1, Math.ceil(leftMs / 1000)) }));
      return;
    }
    cooldowns.started(player.uuid);
  }
  const holder = { uuid: player.uuid, name: player.name };
  for (const id of ids) {
    let answer = codes.held(id, player.uuid);
    if (answer === undefined) {
      try {
        answer = await codes.ask(id, holder, { lane: 'player' });
      } catch (error) {
        cooldowns.cleared(player.uuid);
        reportFailure(sender, deps, error, 'appeal');
        return;
      }
    }
    sender.sendMessage(lineOf(deps, answer, { id, type: typeOf(id) }));
  }
}

function lineOf(deps: CommandDeps, answer: AppealAnswer, punishment: { id: string; type: string }): string {
  const { messages } = deps;
  switch (answer.kind) {
    case 'code':
      return messages.render(
        'commands.appeal.code',
        {
          ...punishment,
          code: answer.code,
          expires: formatTimestamp(answer.expiresAtMs, deps.messages.locale),
          appealUrl: deps.appeals.appealUrl(),
        },
        { optional: ['appealUrl'] },
      );
    case 'cooldown':
      return messages.render('commands.appeal.cooldown', {
        ...punishment,
        date: formatTimestamp(answer.appealableAtMs, deps.messages.locale),
      });
    case 'unappealable':
      return messages.render('commands.appeal.unappealable', punishment);
    case 'open-appeal':
      return messages.render('commands.appeal.open', punishment);
    case 'not-offered':
      return messages.render('commands.appeal.not-offered');
    default:
      return messages.render('commands.appeal.not-found', punishment);
  }
}
