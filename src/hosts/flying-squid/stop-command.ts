import type { FsServer } from './flying-squid-types.js';

/**
 * Routes flying-squid's `/stop` through the host's clean stop. Its own would quit and exit at
 * once, so plugins' onDisable would never run; now that server.yml ops are flying-squid ops,
 * an op typing `/stop` in game must stop the server the way the console's `stop` does.
 */
export function routeStopCommand(serv: FsServer, stop: () => void): void {
  serv.commands.add({
    base: 'stop',
    info: 'Stop the server',
    usage: '/stop',
    op: true,
    action: () => stop(),
  });
}
