import type { Logger } from '../../ports/logger.js';
import { errorText } from '../../runtime/event-bus.js';
import type { HostRuntime } from '../../runtime/host.js';
import { type Completion, completeText } from './completion-candidates.js';
import type { FsClient, FsPlayer, FsServer } from './flying-squid-types.js';
import type { PlayerDirectory } from './player-adapter.js';

export interface TabCompleteRequest {
  text: string;
  /** 1.13 and later. */
  transactionId?: number;
  /** The block looked at: `lookedAtBlock` from 1.9, `block` on 1.8. */
  lookedAtBlock?: unknown;
  block?: unknown;
}

/**
 * The answer to a request, in the packet shape of the client's version. From 1.13 a match
 * replaces `length` characters from `start`; before, it replaces the last word, so command
 * names keep their `/`.
 */
export function tabCompletePacket(
  serv: Pick<FsServer, 'supportFeature'>,
  request: TabCompleteRequest,
  completion: Completion,
): Record<string, unknown> {
  if (serv.supportFeature('tabCompleteHasAToolTip')) {
    return {
      transactionId: request.transactionId ?? 0,
      start: completion.start,
      length: request.text.length - completion.start,
      matches: completion.matches.map((match) => ({ match })),
    };
  }
  return { matches: completion.commandNames ? completion.matches.map((name) => `/${name}`) : completion.matches };
}

/**
 * Answers every tab-completion request itself: flying-squid's own handler writes the pre-1.13
 * packet on every version (a 1.13+ client was disconnected by `/ba` and Tab) and sends argument
 * completions to the player who joined last. Plugin commands complete through their
 * `tabComplete` hook, flying-squid's through its completion types.
 */
export function bridgeTabCompletion(
  serv: FsServer,
  runtime: Pick<HostRuntime, 'commands'>,
  players: Pick<PlayerDirectory, 'adapt'>,
  player: FsPlayer,
  logger: Logger,
): void {
  const client: FsClient = player._client;
  client.removeAllListeners('tab_complete');
  client.on('tab_complete', (request: TabCompleteRequest) => {
    try {
      const completion = completeText(String(request.text ?? ''), {
        serv,
        runtime,
        sender: players.adapt(player),
        isHostOp: Boolean(player.op),
        onlineNames: () =>
          serv.players.filter((online) => !online.disconnected).map((online) => online._client.username),
        block: request.lookedAtBlock ?? request.block,
      });
      client.write('tab_complete', tabCompletePacket(serv, request, completion));
    } catch (error) {
      logger.error(`tab completion for ${client.username} failed`, { error: errorText(error) });
    }
  });
}
