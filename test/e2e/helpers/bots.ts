import type { EventEmitter } from 'node:events';
import { connect } from 'node:net';
import mineflayer, { type Bot } from 'mineflayer';
import { componentText } from '../../../src/minecraft/chat-text.js';

export const GAME_VERSION = '1.21.4';

export { componentText } from '../../../src/minecraft/chat-text.js';
export { offlineUuid } from '../../../src/minecraft/offline-uuid.js';

export interface TestBot {
  readonly name: string;
  readonly bot: Bot;
  /** Chat and system lines this bot saw, in order. */
  readonly seen: string[];
  /** The kick reason as text, once kicked. */
  kickedWith: string | undefined;
  readonly ended: Promise<void>;
  quit(): Promise<void>;
}

export type JoinResult = { joined: true; bot: TestBot } | { joined: false; reason: string };

export interface JoinOptions {
  /** Connect from this loopback address (any of 127.0.0.0/8), as a player from another address would. */
  localAddress?: string;
  /** The language the client reports in its client settings (`de_de`). @default en_US (mineflayer's) */
  locale?: string;
}

/** Joins the server; resolves once spawned, or with the refusal text when kicked before spawning. */
export function joinBot(
  port: number,
  name: string,
  timeoutMs = 20_000,
  options: JoinOptions = {},
): Promise<JoinResult> {
  return new Promise((resolve, reject) => {
    const { localAddress, locale } = options;
    const bot = mineflayer.createBot({
      host: '127.0.0.1',
      port,
      username: name,
      version: GAME_VERSION,
      auth: 'offline',
      // minecraft-protocol sends these settings in the configuration phase (1.20.2+).
      ...(locale === undefined ? {} : { clientSettings: { locale } }),
      ...(localAddress === undefined
        ? {}
        : { connect: (client) => client.setSocket(connect({ host: '127.0.0.1', port, localAddress })) }),
    });
    // mineflayer's createBot takes no locale: the settings packet it sends at play login reads
    // bot.settings.locale, which exists by then; this listener runs before mineflayer's own.
    if (locale !== undefined)
      (bot._client as EventEmitter).once('login', () => Object.assign(bot.settings, { locale }));
    let spawned = false;
    let endedResolve!: () => void;
    const ended = new Promise<void>((done) => {
      endedResolve = done;
    });
    const testBot: TestBot = {
      name,
      bot,
      seen: [],
      kickedWith: undefined,
      ended,
      async quit() {
        bot.quit();
        bot._client.end('done');
        await Promise.race([ended, new Promise((done) => setTimeout(done, 2000))]);
      },
    };
    const timer = setTimeout(() => {
      bot.end();
      reject(new Error(`${name} did not join within ${timeoutMs} ms`));
    }, timeoutMs);
    bot.on('messagestr', (text) => {
      testBot.seen.push(text);
    });
    bot.once('spawn', () => {
      spawned = true;
      clearTimeout(timer);
      resolve({ joined: true, bot: testBot });
    });
    bot.on('kicked', (reason) => {
      testBot.kickedWith = componentText(reason);
      if (!spawned) {
        clearTimeout(timer);
        resolve({ joined: false, reason: testBot.kickedWith });
      }
    });
    bot.on('end', () => {
      endedResolve();
      if (!spawned) {
        clearTimeout(timer);
        resolve({ joined: false, reason: testBot.kickedWith ?? 'connection ended' });
      }
    });
    bot.on('error', () => {});
  });
}

/** Joins and fails the test when refused. */
export async function mustJoin(port: number, name: string, options: JoinOptions = {}): Promise<TestBot> {
  const result = await joinBot(port, name, 20_000, options);
  if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
  return result.bot;
}
