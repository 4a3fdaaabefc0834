import { plainPlayerText } from '../../minecraft/player-text.js';
import type { Logger } from '../../ports/logger.js';
import { escapeColourCodes, parseColourCodes, stripColourCodes, type TextSegment } from '../../runtime/colour-codes.js';
import { sendSegments } from './chat-components.js';
import type { FsPlayer, FsServer } from './flying-squid-types.js';
import type { PlayerDirectory } from './player-adapter.js';

interface Whisper {
  target: string;
  message: string;
}

const consoleName = 'Server';

/** `[from -> to] message`: the names and the message are plain text, never read for codes. */
function whisperLine(from: string, to: string, message: string): TextSegment[] {
  const gray = (text: string): TextSegment => ({ text, color: 'gray' });
  const pink = (text: string): TextSegment => ({ text: plainPlayerText(text), color: 'light_purple' });
  return [gray('['), pink(from), gray(' -> '), pink(to), gray('] '), { text: message, color: 'white' }];
}

/**
 * `/tell` (aliases `/msg`, `/w`) and `/r` (alias `/reply`), which flying-squid lacks. They are
 * ordinary flying-squid commands, so the runtime's command event sees (and can cancel) them first.
 * What players type is shown as plain text: their `&` codes are not rendered.
 */
export function addPrivateMessageCommands(serv: FsServer, players: PlayerDirectory, logger: Logger): void {
  // Last correspondent per player, by lower-cased name, for /r; forgotten when the player leaves.
  const lastCorrespondent = new Map<string, string>();
  serv.on('newPlayer', (player: FsPlayer) => {
    player.once('disconnected', () => lastCorrespondent.delete(player._client.username.toLowerCase()));
  });

  const deliver = (from: FsPlayer | undefined, to: FsPlayer, typed: string): void => {
    const fromName = from?._client.username ?? consoleName;
    const toName = to._client.username;
    const message = plainPlayerText(typed);
    sendSegments(serv, to, whisperLine(fromName, 'you', message));
    if (from) {
      sendSegments(serv, from, whisperLine('you', toName, message));
      lastCorrespondent.set(fromName.toLowerCase(), toName);
    } else {
      logger.info(`[${consoleName} -> ${toName}] ${message}`);
    }
    lastCorrespondent.set(toName.toLowerCase(), fromName);
  };

  const reply = (ctx: { player?: FsPlayer }, text: string): void => {
    if (ctx.player) sendSegments(serv, ctx.player, parseColourCodes(text));
    else logger.info(stripColourCodes(text));
  };

  const sendTo = (ctx: { player?: FsPlayer }, targetName: string, message: string): void => {
    const target = players.rawByName(targetName);
    if (!target) reply(ctx, `&c${escapeColourCodes(plainPlayerText(targetName))} is not online.`);
    else if (target === ctx.player) reply(ctx, '&cYou cannot message yourself.');
    else deliver(ctx.player, target, message);
  };

  serv.commands.add({
    base: 'tell',
    aliases: ['msg', 'w', 'whisper', 'minecraft:tell', 'minecraft:msg', 'minecraft:w'],
    info: 'send a private message',
    usage: '/tell <player> <message>',
    parse: (args) => {
      const match = /^(\S+)\s+(.+)$/.exec(args.trim());
      return match ? ({ target: match[1]!, message: match[2]! } satisfies Whisper) : false;
    },
    action: (parsed, ctx) => {
      const { target, message } = parsed as Whisper;
      sendTo(ctx, target, message);
    },
  });

  serv.commands.add({
    base: 'r',
    aliases: ['reply'],
    info: 'reply to your last private message',
    usage: '/r <message>',
    parse: (args) => (args.trim() ? args.trim() : false),
    action: (parsed, ctx) => {
      const who = ctx.player?._client.username ?? consoleName;
      const target = lastCorrespondent.get(who.toLowerCase());
      if (!target) return reply(ctx, '&cNobody has messaged you yet.');
      sendTo(ctx, target, parsed as string);
    },
  });
}
