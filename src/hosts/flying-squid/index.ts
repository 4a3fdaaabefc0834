import { type GameServer, type StartGameServerOptions, startGameServer as startHostedServer } from '../game-server.js';
import { createFlyingSquidHost } from './flying-squid-host.js';

export type { GameServer, StartGameServerOptions } from '../game-server.js';
export type { ServerSettings } from '../server-settings.js';
export { ensureServerSettingsFile, loadServerSettings } from '../server-settings.js';

/**
 * Starts a flying-squid game server with the plugin runtime, whatever `edition` the settings
 * name (see ../game-server.ts for the shared lifecycle; `bailiff start` picks the host by edition).
 */
export function startGameServer(options: StartGameServerOptions): Promise<GameServer> {
  return startHostedServer({ ...options, host: options.host ?? createFlyingSquidHost });
}
