import type { Logger } from '../../ports/logger.js';
import type { HostRuntime } from '../../runtime/host.js';
import {
  findHostCommandTakeovers,
  type HostCommandTakeover,
  logHostCommandTakeovers,
} from '../../runtime/host-commands.js';
import type { FsServer } from './flying-squid-types.js';
import type { PlayerDirectory } from './player-adapter.js';

/**
 * flying-squid's built-in commands about moderation. A plugin declaring these labels takes them
 * over (Bailiff does, so no ban lands in flying-squid's own list); with no plugin declaring
 * them flying-squid keeps answering them itself.
 */
export const FLYING_SQUID_MODERATION_COMMANDS = ['ban', 'ban-ip', 'banlist', 'pardon', 'pardon-ip', 'kick'];

/**
 * Hands every flying-squid command label a plugin declares to that plugin. Each such label's
 * entry in flying-squid's command table is replaced by one that dispatches to the runtime, so
 * flying-squid's own implementation never runs, whichever path reaches the table: a player,
 * the console, or flying-squid code calling `serv.handleCommand`. (Players' and console lines
 * reach the runtime first anyway; the replaced entries also make `/help` show the plugin's usage.)
 * Call once flying-squid's commands and the host's own are added; logs what was taken over.
 */
export function takeOverHostCommands(
  serv: FsServer,
  runtime: Pick<HostRuntime, 'commands' | 'console'>,
  players: Pick<PlayerDirectory, 'adapt'>,
  logger: Logger,
): HostCommandTakeover[] {
  const takeovers = findHostCommandTakeovers(runtime.commands, Object.keys(serv.commands.hash));
  for (const { label, plugin } of takeovers) {
    const spec = runtime.commands.specOf(label);
    // No `op` flag and no parser: the plugin's declared permission decides, and it parses its own arguments.
    serv.commands.add({
      base: label,
      info: spec?.description ?? `provided by ${plugin}`,
      usage: spec?.usage ?? `/${label}`,
      action: (args, ctx) => {
        const sender = ctx.player ? players.adapt(ctx.player) : runtime.console;
        return runtime.commands.dispatch(sender, `${label} ${String(args ?? '')}`);
      },
    });
  }
  logHostCommandTakeovers(logger, 'flying-squid', takeovers);
  const taken = new Set(takeovers.map((takeover) => takeover.label));
  const kept = FLYING_SQUID_MODERATION_COMMANDS.filter((label) => !taken.has(label));
  if (kept.length > 0) {
    logger.info(
      `flying-squid's own ${kept.map((label) => `/${label}`).join(', ')} still answer (no plugin declares them)`,
    );
  }
  return takeovers;
}
