import { createHash } from 'node:crypto';
import mineflayer, { type Bot } from 'mineflayer';

export const GAME_VERSION = '1.21.4';

/** Offline-mode UUID: version 3 of "OfflinePlayer:" + name. */
export function offlineUuid(name: string): string {
  const hash = createHash('md5').update(`OfflinePlayer:${name}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x30;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An NBT tag (chat components from 1.20.3 on) as plain values. */
function simplifyNbt(tag: unknown): unknown {
  if (tag === null || typeof tag !== 'object' || !('type' in tag) || !('value' in tag)) return tag;
  const { type, value } = tag as { type: string; value: unknown };
  if (type === 'compound') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, simplifyNbt(v)]));
  }
  if (type === 'list') {
    const list = value as { type: string; value: unknown[] };
    return list.value.map((item) => simplifyNbt({ type: list.type, value: item }));
  }
  return value;
}

/** The text of a chat component: JSON text before 1.20.3, NBT after. */
function componentTextOf(value: unknown): string {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === 'object' && parsed !== null ? componentTextOf(parsed) : value;
    } catch {
      return value;
    }
  }
  const component = simplifyNbt(value);
  if (typeof component === 'string') return component;
  if (Array.isArray(component)) return component.map(componentTextOf).join('');
  if (component === null || typeof component !== 'object') return component === undefined ? '' : String(component);
  const { text, extra } = component as { text?: unknown; extra?: unknown };
  const own = typeof text === 'string' ? text : String((component as Record<string, unknown>)[''] ?? '');
  return own + (Array.isArray(extra) ? extra.map(componentTextOf).join('') : '');
}

export const componentText = componentTextOf;

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

/** Joins the server; resolves once spawned, or with the refusal text when kicked before spawning. */
export function joinBot(port: number, name: string, timeoutMs = 20_000): Promise<JoinResult> {
  return new Promise((resolve, reject) => {
    const bot = mineflayer.createBot({
      host: '127.0.0.1',
      port,
      username: name,
      version: GAME_VERSION,
      auth: 'offline',
    });
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
export async function mustJoin(port: number, name: string): Promise<TestBot> {
  const result = await joinBot(port, name);
  if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
  return result.bot;
}
