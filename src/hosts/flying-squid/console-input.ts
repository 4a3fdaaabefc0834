import { createInterface, type Interface } from 'node:readline';
import type { Logger } from '../../ports/logger.js';
import { errorText } from '../../runtime/event-bus.js';
import type { HostRuntime } from '../../runtime/host.js';
import type { FsServer } from './flying-squid-types.js';

/**
 * One line describing who is on the server: the players the runtime sees and every connection
 * flying-squid still tracks, so a half-joined player would show up in `tracked` or `connections`.
 */
export function playerListLine(serv: FsServer, runtime: HostRuntime): string {
  const online = runtime.players.online().map((player) => player.name);
  const tracked = Object.values(serv.uuidToPlayer).map((player) => player._client.username);
  const clients = (serv._server as unknown as { clients?: Record<string, unknown> }).clients ?? {};
  return `players online (${online.length}): ${online.join(', ')} | tracked: ${tracked.join(', ')} | connections: ${Object.keys(clients).length}`;
}

export interface ConsoleInputOptions {
  serv: FsServer;
  runtime: HostRuntime;
  logger: Logger;
  /** Called for `stop`. */
  onStop: () => void;
}

/**
 * Reads console commands line by line: `list`, `stop`, a plugin's command, or else a
 * flying-squid command. Returns the readline interface so the caller can close it.
 */
export function readConsoleCommands(input: NodeJS.ReadableStream, options: ConsoleInputOptions): Interface {
  const { serv, runtime, logger } = options;
  const lines = createInterface({ input, terminal: false });
  lines.on('line', (raw) => {
    const line = raw.trim().replace(/^\//, '');
    if (!line) return;
    if (line === 'list') return logger.info(playerListLine(serv, runtime));
    if (line === 'stop') return options.onStop();
    const run = runtime.commands.dispatch(runtime.console, line);
    if (run) return void run;
    serv
      .handleCommand(line)
      .catch((error: unknown) => logger.error('console command failed', { error: errorText(error) }));
  });
  return lines;
}
