import type { PreviewResponse } from '../../src/contract/schemas.js';
import { severity as severitySchema } from '../../src/contract/schemas.js';
import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import type { Completions } from './completion.js';
import type { CommandDeps } from './deps.js';
import { reportFailure } from './failures.js';
import { formatOutcome } from './format.js';
import { nextWarningPlaceholders } from './next-warning.js';
import { resolveTarget, resolveTypeArgument } from './resolve-arguments.js';

/** `/preview <player> <type>`: points, tiers, offense level and the outcome of each severity. */
export function previewCommand(deps: CommandDeps, completions?: Completions): CommandHandler {
  return {
    execute: (invocation) => preview(deps, invocation),
    tabComplete: ({ args }) => {
      const prefix = args.at(-1) ?? '';
      if (args.length === 1) return completions?.players(prefix) ?? [];
      if (args.length === 2) return completions?.types(prefix) ?? [];
      return [];
    },
  };
}

async function preview(deps: CommandDeps, { sender, args }: CommandInvocation): Promise<void> {
  const [playerArg, typeArg] = args;
  if (playerArg === undefined || typeArg === undefined || args.length > 2) throw new CommandUsageError();
  const target = resolveTarget(deps, sender, playerArg);
  if (!target) return;
  const type = await resolveTypeArgument(deps, sender, typeArg);
  if (!type) return;

  let result: PreviewResponse;
  try {
    result = await deps.client.previewPunishment({ playerUuid: target.uuid, typeOrdinal: type.ordinal });
  } catch (error) {
    return reportFailure(sender, deps, error, 'preview');
  }
  const render = deps.messages.render.bind(deps.messages);
  sender.sendMessage(render('commands.preview.header', { player: target.name, type: type.title }));
  sender.sendMessage(
    render('commands.preview.points', {
      socialPoints: result.socialPoints,
      socialStatus: result.socialStatus,
      gameplayPoints: result.gameplayPoints,
      gameplayStatus: result.gameplayStatus,
    }),
  );
  sender.sendMessage(render('commands.preview.level', { level: result.offenseLevel }));
  for (const severity of severitySchema.options) {
    sender.sendMessage(render('commands.preview.severity', { severity, outcome: formatOutcome(result[severity]) }));
  }
  const next = nextWarningPlaceholders(result);
  if (next) sender.sendMessage(render('commands.punish.next-warning', next));
}
