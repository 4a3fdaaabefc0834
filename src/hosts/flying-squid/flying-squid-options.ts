import { type ServerSettings, worldFolderOf } from '../server-settings.js';

/** flying-squid's own option object for these settings. */
export function flyingSquidOptions(settings: ServerSettings, serverDir: string): Record<string, unknown> {
  return {
    host: settings.host,
    port: settings.port,
    version: settings.version,
    'online-mode': settings.onlineMode,
    motd: settings.motd,
    'max-players': settings.maxPlayers,
    worldFolder: worldFolderOf(settings, serverDir),
    // flying-squid has no empty generator: `void` gets the smallest world it has.
    generation:
      settings.generation === 'diamond_square'
        ? { name: 'diamond_square', options: { worldHeight: 80 } }
        : { name: 'superflat', options: { worldHeight: 80 } },
    'view-distance': settings.viewDistance,
    // A player whose keep-alive answer the server has not read for this long is kicked
    // (`KeepAliveTimeout`). flying-squid's 10 s was met by the server's own loop alone on a loaded
    // machine (turns of 5 to 9 s at a load average of 20; the check runs before the pending answer
    // is read): 30 s, as the vanilla server and minecraft-protocol wait.
    kickTimeout: 30_000,
    plugins: {},
    gameMode: 0,
    difficulty: 1,
    'everybody-op': false,
    'max-entities': 100,
    'player-list-text': { header: { text: '' }, footer: { text: '' } },
  };
}
