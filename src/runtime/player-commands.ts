import type { Logger } from '../ports/logger.js';
import type { CommandRegistry } from './command-registry.js';
import { errorText } from './event-bus.js';
import type { Player } from './plugin-api.js';
import type { PluginEvents } from './runtime-events.js';

/**
 * Who answers a player's command: `cancelled` (a plugin vetoed it: nobody runs it), `plugin`
 * (a plugin's command runs it) or `host` (the host's own command handling).
 */
export type CommandRoute = 'cancelled' | 'plugin' | 'host';

export interface PlayerCommandDeps {
  events: Pick<PluginEvents, 'command'>;
  commands: Pick<CommandRegistry, 'dispatch'>;
  logger: Logger;
}

/**
 * The one command path of every host: the `player:command` event (cancellable), then a
 * plugin's command, else the host's. `line` may start with `/`. A plugin command's failure is
 * logged here; the registry has already told the sender.
 */
export function routePlayerCommand(deps: PlayerCommandDeps, player: Player, rawLine: string): CommandRoute {
  const line = rawLine.trim().replace(/^\//, '').trim();
  if (!line) return 'host';
  if (deps.events.command(player, line).cancelled) return 'cancelled';
  const run = deps.commands.dispatch(player, line);
  if (!run) return 'host';
  run.catch((error: unknown) => deps.logger.error('command dispatch failed', { error: errorText(error) }));
  return 'plugin';
}
