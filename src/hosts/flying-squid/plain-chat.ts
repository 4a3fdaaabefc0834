import { plainPlayerText } from '../../minecraft/player-text.js';
import type { TextSegment } from '../../runtime/colour-codes.js';
import { escapeControlCharacters } from '../../runtime/log-escape.js';
import { sendSegments } from './chat-components.js';
import type { FsPlayer, FsServer } from './flying-squid-types.js';

type CancelBehavior = (triggerCancelBehavior?: boolean, hideFromPlugins?: boolean) => void;

const PLAIN_CHAT = Symbol('bailiff.plainChat');

/** `<name> message` with both parts in plain text fields: nothing a player typed is read as a code. */
export function playerChatLine(name: string, message: string): TextSegment[] {
  return [{ text: '<' }, { text: plainPlayerText(name) }, { text: '> ' }, { text: plainPlayerText(message) }];
}

/** ANSI faint and back to normal: a console shows the line dim; our own logs strip them. */
const DIM = '\u001b[2m';
const UNDIM = '\u001b[22m';

/** flying-squid's log.js prints `<name> message` for every chat event, a cancelled one too. */
function isFlyingSquidChatLog(listener: unknown): boolean {
  return /serv\.info\('<'/.test(String(listener));
}

/**
 * flying-squid builds public chat by parsing `&` codes in what the player typed (and clients
 * read `§` anywhere), so a player could print a red `[Server]` line. Its broadcast is replaced by
 * one of plain text: our listener cancels it (after the runtime let the message through), and once
 * every listener had its say, the line is sent unless another listener cancelled it too.
 *
 * The console shows `<name> message` only for a line that went out: flying-squid's own log of
 * chat printed lines a plugin had cancelled (a muted player's) as if everyone had read them. A
 * line the runtime blocked is shown dim as `[muted] name: message` ({@link onBlocked}).
 */
export function takeOverPlayerChat(
  serv: FsServer,
  player: FsPlayer,
): {
  onAllowed(data: object, cancel: CancelBehavior): void;
  onBlocked(message: string): void;
} {
  for (const listener of player.listeners('chat')) {
    if (isFlyingSquidChatLog(listener)) player.removeListener('chat', listener as (...args: unknown[]) => void);
  }
  const name = () => escapeControlCharacters(player._client.username);
  player.on('chat', (data: Record<PropertyKey, unknown>, isCancelled: boolean, cancelCount: number) => {
    if (data[PLAIN_CHAT] !== true || !isCancelled || cancelCount !== 1) return;
    const message = String(data.message ?? '');
    const line = playerChatLine(player._client.username, message);
    for (const receiver of serv.players) sendSegments(serv, receiver, line);
    serv.info(`<${name()}> ${escapeControlCharacters(message)}`);
  });
  return {
    onAllowed(data, cancel) {
      (data as Record<PropertyKey, unknown>)[PLAIN_CHAT] = true;
      cancel(false);
    },
    onBlocked(message) {
      serv.info(`${DIM}[muted] ${name()}: ${escapeControlCharacters(message)}${UNDIM}`);
    },
  };
}
