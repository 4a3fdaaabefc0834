import type { Bot } from 'mineflayer';
import { componentText } from '../../minecraft/chat-text.js';

/** How long the demo waits for any one thing to happen: generous, for a busy machine. */
export const DEMO_WAIT_MS = 60_000;

/**
 * Resolves with `check`'s value once it is defined, re-checked each time `subscribe`'s callback
 * fires; rejects when `check` throws, or after `timeoutMs`.
 */
export function waitUntil<T>(
  what: string,
  subscribe: (wake: () => void) => () => void,
  check: () => T | undefined,
  timeoutMs = DEMO_WAIT_MS,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let unsubscribe = () => {};
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`gave up after ${timeoutMs / 1000} s waiting for ${what}`));
    }, timeoutMs);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      unsubscribe();
      outcome();
    };
    const wake = () => {
      let value: T | undefined;
      try {
        value = check();
      } catch (error) {
        return settle(() => reject(error));
      }
      if (value !== undefined) settle(() => resolve(value));
    };
    unsubscribe = subscribe(wake);
    wake();
  });
}

/** One bot of the demo and what it saw: chat lines, whether it spawned, why it was disconnected. */
export class DemoBot {
  readonly lines: string[] = [];
  spawned = false;
  kicked: string | undefined;
  ended = false;
  readonly #wakers = new Set<() => void>();

  constructor(
    readonly name: string,
    readonly bot: Bot,
    say: (line: string) => void,
  ) {
    bot.on('messagestr', (line) => {
      this.lines.push(line);
      say(`  [${name} sees] ${line}`);
      this.#wake();
    });
    bot.on('kicked', (reason) => {
      this.kicked = componentText(reason);
      say(`  [${name} is disconnected] ${this.kicked.replace(/\n/g, ' | ')}`);
      this.#wake();
    });
    bot.on('end', () => {
      this.ended = true;
      this.#wake();
    });
    bot.on('error', () => {});
    bot.once('spawn', () => {
      this.spawned = true;
      this.#wake();
    });
  }

  /** Resolves once `check` holds for this bot. */
  until<T>(what: string, check: (bot: DemoBot) => T | undefined): Promise<T> {
    return waitUntil(
      `${what} (${this.name})`,
      (wake) => {
        this.#wakers.add(wake);
        return () => this.#wakers.delete(wake);
      },
      () => check(this),
    );
  }

  /** Spawned, or refused: `true` when it got in. Fails when the connection ends with neither. */
  admitted(): Promise<boolean> {
    return this.until('a spawn or a refusal', (bot) => {
      if (bot.spawned) return true;
      if (bot.kicked !== undefined) return false;
      if (bot.ended) throw new Error(`${bot.name}'s connection ended before it spawned or was refused`);
      return undefined;
    });
  }

  sawLine(part: string): boolean {
    return this.lines.some((line) => line.includes(part));
  }

  quit(): void {
    // Ending a closed connection again arms a 30 s timer in minecraft-protocol that holds the process.
    if (!this.ended) this.bot.end();
  }

  #wake(): void {
    for (const wake of this.#wakers) wake();
  }
}
