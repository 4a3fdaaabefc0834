import { parseColourCodes, stripColourCodes } from '../../../src/runtime/colour-codes.js';
import { BEDROCK_VERSION, connectBedrock, recordTexts, sendChat, sendCommand } from '../helpers/bedrock-bots.js';
import { componentText, expectKicked, joinBot } from '../helpers/bots.js';

/** One connected player, whatever the edition. */
export interface GameClient {
  readonly name: string;
  /** Lines seen, colour codes removed. */
  readonly messages: string[];
  /** Resolves with the first line (seen or future) for which `match` holds; rejects after `timeoutMs`. */
  waitForMessage(match: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  /** The colour of the segment holding `text` in the line holding it, as the client received it. */
  colourOf(text: string): string | undefined;
  /** Resolves with the kick reason (colour codes removed) once the server kicks this client. */
  readonly kicked: Promise<string>;
  /** Resolves once every named player is in this client's world (spawned to it); rejects after `timeoutMs`. */
  waitToSee(names: readonly string[], timeoutMs?: number): Promise<void>;
  chat(message: string): void;
  /** `line` without the leading `/`. */
  command(line: string): void;
  quit(): Promise<void>;
}

/** How to connect the clients of one edition. */
export interface ClientKind {
  readonly name: string;
  join(port: number, name: string, timeoutMs?: number): Promise<GameClient>;
  /** Connects a player expected to be refused; resolves with the reason, colour codes removed. */
  refused(port: number, name: string, timeoutMs?: number): Promise<string>;
}

/** Resolves once `sees` holds for every name, re-checked on each `wake`. */
function visibility(name: string, sees: (other: string) => boolean) {
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const check of wakers) check();
  };
  const waitToSee = (names: readonly string[], timeoutMs = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!names.every(sees)) return;
        clearTimeout(timer);
        wakers.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        wakers.delete(check);
        reject(new Error(`${name} does not see ${names.filter((other) => !sees(other)).join(', ')}`));
      }, timeoutMs);
      wakers.add(check);
      check();
    });
  return { wake, waitToSee };
}

function waiter(name: string, messages: string[]) {
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const check of wakers) check();
  };
  const waitForMessage = (match: (text: string) => boolean, timeoutMs = 10_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (found === undefined) return;
        clearTimeout(timer);
        wakers.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        wakers.delete(check);
        reject(new Error(`${name} did not receive the message; got:\n${messages.join('\n')}`));
      }, timeoutMs);
      wakers.add(check);
      check();
    });
  return { wake, waitForMessage };
}

export const mineflayerClients: ClientKind = {
  name: 'mineflayer (Java 1.21.4)',
  join: async (port, name, timeoutMs) => {
    const bot = await joinBot(port, name, undefined, timeoutMs);
    const kicked = new Promise<string>((resolve) => bot.bot.once('kicked', (reason) => resolve(componentText(reason))));
    // Seen: in the tab list and spawned as a player entity.
    const seeing = visibility(name, (other) => bot.bot.players[other]?.entity !== undefined);
    for (const event of ['entitySpawn', 'playerJoined', 'playerUpdated'] as const) bot.bot.on(event, seeing.wake);
    return {
      name,
      kicked,
      waitToSee: seeing.waitToSee,
      messages: bot.messages,
      waitForMessage: bot.waitForMessage,
      colourOf: (text) => {
        const index = bot.messages.findIndex((line) => line.includes(text));
        const component = bot.components[index] as { extra?: { text: string; color?: string }[] } | undefined;
        return component?.extra?.find((part) => part.text.includes(text))?.color;
      },
      chat: (message) => bot.bot.chat(message),
      command: (line) => bot.bot.chat(`/${line}`),
      quit: async () => bot.quit(),
    };
  },
  refused: (port, name, timeoutMs) => expectKicked(port, name, undefined, timeoutMs),
};

export const bedrockClients: ClientKind = {
  name: `bedrock-protocol (Bedrock ${BEDROCK_VERSION}, offline)`,
  join: (port, name, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const client = connectBedrock(port, name);
      const added = new Set<string>();
      const seeing = visibility(name, (other) => added.has(other));
      client.on('add_player', (packet: { username: string }) => {
        added.add(packet.username);
        seeing.wake();
      });
      let wake = () => {};
      const texts = recordTexts(client, () => wake());
      const waiting = waiter(name, texts.text);
      wake = waiting.wake;
      const timer = setTimeout(() => {
        client.close();
        reject(new Error(`${name} did not spawn within ${timeoutMs} ms`));
      }, timeoutMs);
      const kicked = new Promise<string>((resolveKick) =>
        client.once('kick', (packet: { message: string }) => {
          clearTimeout(timer);
          reject(new Error(`${name} was kicked: ${packet.message}`));
          resolveKick(stripColourCodes(packet.message));
        }),
      );
      client.on('error', (error: Error) => {
        clearTimeout(timer);
        reject(error);
      });
      client.once('spawn', () => {
        clearTimeout(timer);
        resolve({
          name,
          kicked,
          waitToSee: seeing.waitToSee,
          messages: texts.text,
          waitForMessage: waiting.waitForMessage,
          colourOf: (text) => {
            for (const raw of texts.raw) {
              const segment = parseColourCodes(raw).find((part) => part.text.includes(text));
              if (segment) return segment.color;
            }
            return undefined;
          },
          chat: (message) => sendChat(client, name, message),
          command: (line) => sendCommand(client, line),
          quit: async () => client.close(),
        });
      });
    }),
  refused: (port, name, timeoutMs = 15_000) =>
    new Promise((resolve, reject) => {
      const client = connectBedrock(port, name);
      const timer = setTimeout(() => {
        client.close();
        reject(new Error(`${name} was not refused within ${timeoutMs} ms`));
      }, timeoutMs);
      client.once('kick', (packet: { message: string }) => {
        clearTimeout(timer);
        client.close();
        resolve(stripColourCodes(packet.message));
      });
      client.once('spawn', () => {
        clearTimeout(timer);
        client.close();
        reject(new Error(`${name} spawned but should have been refused`));
      });
      client.on('error', () => {});
    }),
};
