import { type BedrockBot, bedrockOfflineUuid, joinBedrock } from './bedrock-bots.js';
import { joinBot, offlineUuid, type TestBot } from './bots.js';
import { BEDROCK_TEST_SETTINGS } from './game-server.js';
import { bedrockMover, javaMover, type Mover } from './movement.js';

/** A player connected to the game server under test, whatever its edition. */
export interface PlayerBot {
  readonly name: string;
  /** Chat and system lines this player saw, in order, colour codes removed. */
  readonly seen: string[];
  /** The kick reason as text, once kicked. */
  readonly kickedWith: string | undefined;
  chat(message: string): void;
  /** A private message to another player, with the host's own command. */
  whisper(target: string, message: string): void;
  /** Runs a command; `line` without the leading `/`. */
  command(line: string): void;
  /** Calls `listener` with each line this player sees from now on, as it arrives. */
  onLine(listener: (line: string) => void): void;
  /** Moves the player and counts the server's corrections of its position. */
  readonly mover: Mover;
  quit(): Promise<void>;
}

export type PlayerJoin = { joined: true; bot: PlayerBot } | { joined: false; reason: string };

/** One game server Bailiff runs on, as the end-to-end suites drive it. */
export interface HostUnderTest {
  readonly name: string;
  /** Keys of server.yml for this host. */
  readonly serverSettings: Record<string, unknown>;
  /** The UUID the host gives an offline player of this name. */
  uuidOf(name: string): string;
  /** The private-message command the host routes (what a mute refuses). */
  readonly whisperCommand: string;
  /**
   * @param timeoutMs how long to wait for the spawn (or the refusal). @default 20000
   * @param options.locale the game language the client reports, like `de_DE` (Java sends it lower-cased). @default the client library's English
   */
  join(port: number, name: string, timeoutMs?: number, options?: { locale?: string }): Promise<PlayerJoin>;
}

function fromJava(bot: TestBot): PlayerBot {
  return {
    name: bot.name,
    seen: bot.seen,
    get kickedWith() {
      return bot.kickedWith;
    },
    chat: (message) => bot.bot.chat(message),
    whisper: (target, message) => bot.bot.whisper(target, message),
    command: (line) => bot.bot.chat(`/${line}`),
    // Registered after the bot's own recorder: the line is the newest seen.
    onLine: (listener) => bot.bot.on('messagestr', () => listener(bot.seen.at(-1)!)),
    mover: javaMover(bot.bot),
    quit: () => bot.quit(),
  };
}

function fromBedrock(bot: BedrockBot): PlayerBot {
  return {
    name: bot.name,
    seen: bot.seen,
    get kickedWith() {
      return bot.kickedWith;
    },
    chat: (message) => bot.chat(message),
    whisper: (target, message) => bot.command(`msg ${target} ${message}`),
    command: (line) => bot.command(line),
    onLine: (listener) => bot.client.on('text', () => listener(bot.seen.at(-1)!)),
    mover: bedrockMover(bot.client),
    quit: () => bot.quit(),
  };
}

/** flying-squid with mineflayer bots, and SerenityJS with bedrock-protocol clients, both offline. */
export const HOSTS: readonly HostUnderTest[] = [
  {
    name: 'flying-squid (Java)',
    serverSettings: {},
    uuidOf: offlineUuid,
    whisperCommand: 'tell',
    join: async (port, name, timeoutMs, options) => {
      const locale = options?.locale?.toLowerCase();
      const result = await joinBot(port, name, timeoutMs, locale === undefined ? {} : { locale });
      return result.joined ? { joined: true, bot: fromJava(result.bot) } : result;
    },
  },
  {
    name: 'SerenityJS (Bedrock)',
    serverSettings: BEDROCK_TEST_SETTINGS,
    uuidOf: bedrockOfflineUuid,
    whisperCommand: 'msg',
    join: async (port, name, timeoutMs, options) => {
      const languageCode = options?.locale;
      const result = await joinBedrock(port, name, timeoutMs, languageCode === undefined ? {} : { languageCode });
      return result.joined ? { joined: true, bot: fromBedrock(result.bot) } : result;
    },
  },
];
