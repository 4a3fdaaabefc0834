import { plainPlayerText } from '../../minecraft/player-text.js';
import type { TextSegment } from '../../runtime/colour-codes.js';
import { sendSegments } from './chat-components.js';
import type { FsPlayer, FsServer } from './flying-squid-types.js';

type CancelBehavior = (triggerCancelBehavior?: boolean, hideFromPlugins?: boolean) => void;

const PLAIN_CHAT = Symbol('bailiff.plainChat');

/** `<name> message` with both parts in plain text fields: nothing a player typed is read as a code. */
export function playerChatLine(name: string, message: string): TextSegment[] {
  return [{ text: '<' }, { text: plainPlayerText(name) }, { text: '> ' }, { text: plainPlayerText(message) }];
}

/**
 * flying-squid builds public chat by parsing `&` codes in what the player typed (and clients
 * read `§` anywhere), so a player could print a red `[Server]` line. Its broadcast is replaced by
 * one of plain text: our listener cancels it (after the runtime let the message through), and once
 * every listener had its say, the line is sent unless another listener cancelled it too.
 */
export function takeOverPlayerChat(
  serv: FsServer,
  player: FsPlayer,
): {
  onAllowed(data: object, cancel: CancelBehavior): void;
} {
  player.on('chat', (data: Record<PropertyKey, unknown>, isCancelled: boolean, cancelCount: number) => {
    if (data[PLAIN_CHAT] !== true || !isCancelled || cancelCount !== 1) return;
    const line = playerChatLine(player._client.username, String(data.message ?? ''));
    for (const receiver of serv.players) sendSegments(serv, receiver, line);
  });
  return {
    onAllowed(data, cancel) {
      (data as Record<PropertyKey, unknown>)[PLAIN_CHAT] = true;
      cancel(false);
    },
  };
}
