import type { Serenity } from '@serenityjs/core';
import type { Logger } from '../../ports/logger.js';
import type { HostConsole, HostRuntime } from '../../runtime/host.js';
import { cleanSerenityText } from './serenity-logs.js';

/** Who is on the server: the players the runtime sees, then every RakNet connection (pre-login ones too). */
export function bedrockPlayerListLine(serenity: Serenity, runtime: Pick<HostRuntime, 'players'>): string {
  const online = runtime.players.online().map((player) => player.name);
  return `players online (${online.length}): ${online.join(', ')} | connections: ${serenity.network.raknet.connections.size}`;
}

/** SerenityJS's side of the console: who is on, and its commands, run in the default world. */
export function serenityConsole(
  serenity: Serenity,
  runtime: Pick<HostRuntime, 'players'>,
  logger: Logger,
): HostConsole {
  return {
    describePlayers: () => bedrockPlayerListLine(serenity, runtime),
    run: async (line) => {
      const response = await serenity.getWorld().getDimension().executeCommandAsync(line);
      if (response.message) logger.info(cleanSerenityText(response.message));
    },
  };
}
