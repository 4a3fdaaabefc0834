import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { CommandDeps } from './deps.js';
import { localOnlyText } from './freeze.js';
import { askForSender } from './player-call.js';
import { resolveAnyTarget } from './resolve-arguments.js';

/** `/unfreeze <player>`: lets a frozen player go, on every server of the network when the service keeps freezes. */
export function unfreezeCommand(deps: CommandDeps): CommandHandler {
  return {
    execute: (invocation) => unfreeze(deps, invocation),
    tabComplete: ({ args }) =>
      args.length === 1
        ? deps.freezes
            .list()
            .map((entry) => entry.name)
            .filter((name) => name.toLowerCase().startsWith((args[0] ?? '').toLowerCase()))
        : [],
  };
}

async function unfreeze(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [playerArg] = args;
  if (playerArg === undefined || args.length > 1) throw new CommandUsageError();
  const render = deps.messages.render.bind(deps.messages);
  const frozen = deps.freezes.list().find((entry) => entry.name.toLowerCase() === playerArg.toLowerCase());
  const target = frozen
    ? { uuid: frozen.uuid, name: frozen.name }
    : (await resolveAnyTarget(deps, sender, playerArg))?.player;
  if (!target) return;
  const outcome = await askForSender(deps, sender, `unfreeze ${target.uuid} ${deps.ids()}`, (options) =>
    deps.freezes.unfreeze(target.uuid, sender.name, options),
  );
  if (!outcome) return;
  if (outcome.kind === 'not-frozen')
    sender.sendMessage(render('commands.unfreeze.not-frozen', { player: target.name }));
  else if (outcome.localOnly) {
    sender.sendMessage(
      render('commands.unfreeze.done-local', { player: target.name, why: localOnlyText(deps, outcome.localOnly) }),
    );
  } else sender.sendMessage(render('commands.unfreeze.done', { player: target.name }));
}
