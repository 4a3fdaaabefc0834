import mineflayer, { type Bot } from 'mineflayer';
import { componentText } from '../../../src/minecraft/chat-text.js';

export { componentText };

/** A bot plus everything it was told, as plain text and as the raw components. */
export interface TestBot {
  bot: Bot;
  name: string;
  messages: string[];
  components: unknown[];
  /** Resolves with the first message (seen or future) for which `match` holds. */
  waitForMessage(match: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  quit(): void;
}

/** Connects a bot and waits for it to spawn. */
export async function joinBot(port: number, name: string, version = '1.21.4', timeoutMs = 15_000): Promise<TestBot> {
  const bot = mineflayer.createBot({ host: '127.0.0.1', port, username: name, auth: 'offline', version });
  const testBot = watch(bot, name);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not spawn within ${timeoutMs} ms`)), timeoutMs);
    bot.once('spawn', () => {
      clearTimeout(timer);
      resolve();
    });
    bot.once('kicked', (reason) => {
      clearTimeout(timer);
      reject(new Error(`${name} was kicked: ${componentText(reason)}`));
    });
    bot.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
  return testBot;
}

/** Connects a bot expected to be refused; resolves with the kick reason's text. */
export function expectKicked(port: number, name: string, version = '1.21.4', timeoutMs = 15_000): Promise<string> {
  const bot = mineflayer.createBot({ host: '127.0.0.1', port, username: name, auth: 'offline', version });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      bot.end();
      reject(new Error(`${name} was not kicked within ${timeoutMs} ms`));
    }, timeoutMs);
    bot.once('kicked', (reason) => {
      clearTimeout(timer);
      resolve(componentText(reason));
    });
    bot.once('spawn', () => {
      clearTimeout(timer);
      bot.end();
      reject(new Error(`${name} spawned but should have been refused`));
    });
    bot.on('error', () => {});
  });
}

function watch(bot: Bot, name: string): TestBot {
  const messages: string[] = [];
  const components: unknown[] = [];
  const waiters = new Set<() => void>();
  bot.on('message', (message) => {
    messages.push(message.toString());
    components.push(message.json);
    for (const wake of waiters) wake();
  });
  bot.on('error', () => {});
  return {
    bot,
    name,
    messages,
    components,
    waitForMessage: (match, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found === undefined) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${name} did not receive the message; got:\n${messages.join('\n')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    quit: () => bot.quit(),
  };
}
