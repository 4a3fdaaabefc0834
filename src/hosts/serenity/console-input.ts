import { createInterface, type Interface } from 'node:readline';
import type { Serenity } from '@serenityjs/core';
import type { Logger } from '../../ports/logger.js';
import { errorText } from '../../runtime/event-bus.js';
import type { HostRuntime } from '../../runtime/host.js';
import { cleanSerenityText } from './serenity-logs.js';

/** Who is on the server: the players the runtime sees, then every RakNet connection (pre-login ones too). */
export function bedrockPlayerListLine(serenity: Serenity, runtime: HostRuntime): string {
  const online = runtime.players.online().map((player) => player.name);
  return `players online (${online.length}): ${online.join(', ')} | connections: ${serenity.network.raknet.connections.size}`;
}

export interface BedrockConsoleOptions {
  serenity: Serenity;
  runtime: HostRuntime;
  logger: Logger;
  onStop: () => void;
}

/** Reads console lines: `list`, `stop`, a plugin's command, else a SerenityJS command in the default world. */
export function readBedrockConsole(input: NodeJS.ReadableStream, options: BedrockConsoleOptions): Interface {
  const { serenity, runtime, logger } = options;
  const lines = createInterface({ input, terminal: false });
  lines.on('line', (raw) => {
    const line = raw.trim().replace(/^\//, '');
    if (!line) return;
    if (line === 'list') return logger.info(bedrockPlayerListLine(serenity, runtime));
    if (line === 'stop') return options.onStop();
    const run = runtime.commands.dispatch(runtime.console, line);
    if (run) return void run;
    serenity
      .getWorld()
      .getDimension()
      .executeCommandAsync(line)
      .then((response) => {
        if (response.message) logger.info(cleanSerenityText(response.message));
      })
      .catch((error: unknown) => logger.error('console command failed', { error: errorText(error) }));
  });
  return lines;
}
