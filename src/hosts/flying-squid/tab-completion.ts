import { parseCommandLine } from '../../runtime/command-registry.js';
import type { HostRuntime } from '../../runtime/host.js';
import type { FsPlayer, FsServer } from './flying-squid-types.js';
import type { PlayerDirectory } from './player-adapter.js';

interface TabCompleteRequest {
  text: string;
  transactionId?: number;
}

/**
 * Answers tab completion of plugin commands' arguments through their `tabComplete` hook, in
 * the packet shape of the player's version; everything else still goes to flying-squid.
 */
export function bridgeTabCompletion(serv: FsServer, runtime: HostRuntime, players: PlayerDirectory, player: FsPlayer) {
  const client = player._client;
  const flyingSquidHandlers = client.listeners('tab_complete') as ((request: TabCompleteRequest) => void)[];
  client.removeAllListeners('tab_complete');
  client.on('tab_complete', (request: TabCompleteRequest) => {
    const line = request.text.startsWith('/') ? request.text.slice(1) : '';
    if (!line.includes(' ') || !runtime.commands.has(parseCommandLine(line).label)) {
      for (const handler of flyingSquidHandlers) handler.call(client, request);
      return;
    }
    const lastWord = request.text.slice(request.text.lastIndexOf(' ') + 1);
    const matches = runtime.commands
      .complete(players.adapt(player), line)
      .filter((match) => match.toLowerCase().startsWith(lastWord.toLowerCase()));
    if (serv.supportFeature('tabCompleteHasAToolTip')) {
      client.write('tab_complete', {
        transactionId: request.transactionId ?? 0,
        start: request.text.length - lastWord.length,
        length: lastWord.length,
        matches: matches.map((match) => ({ match })),
      });
    } else {
      client.write('tab_complete', { matches });
    }
  });
}
