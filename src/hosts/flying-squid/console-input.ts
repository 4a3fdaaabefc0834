import type { HostConsole, HostRuntime } from '../../runtime/host.js';
import type { FsServer } from './flying-squid-types.js';

/**
 * One line describing who is on the server: the players the runtime sees and every connection
 * flying-squid still tracks, so a half-joined player would show up in `tracked` or `connections`.
 */
export function playerListLine(serv: FsServer, runtime: Pick<HostRuntime, 'players'>): string {
  const online = runtime.players.online().map((player) => player.name);
  const tracked = Object.values(serv.uuidToPlayer).map((player) => player._client.username);
  const clients = (serv._server as unknown as { clients?: Record<string, unknown> }).clients ?? {};
  return `players online (${online.length}): ${online.join(', ')} | tracked: ${tracked.join(', ')} | connections: ${Object.keys(clients).length}`;
}

/** flying-squid's side of the console: who is on, and its own commands. */
export function flyingSquidConsole(serv: FsServer, runtime: Pick<HostRuntime, 'players'>): HostConsole {
  return {
    describePlayers: () => playerListLine(serv, runtime),
    run: (line) => serv.handleCommand(line),
  };
}
