import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { waitUntil } from './demo-bot.js';

const LISTENING = /^game server listening on [\d.]+:(\d+)$/m;
const KILL_AFTER_MS = 10_000;

/** `bailiff start --dir DIR` in a child process, with its output kept for errors. */
export class DemoServer {
  readonly #child: ChildProcess;
  #output = '';
  #exited = false;

  constructor(main: string, dir: string) {
    this.#child = spawn(process.execPath, [main, 'start', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BAILIFF_API_URL: '', BAILIFF_API_KEY: '' },
    });
    this.#child.stdout!.on('data', (chunk: Buffer) => {
      this.#output += chunk.toString();
    });
    this.#child.stderr!.on('data', (chunk: Buffer) => {
      this.#output += chunk.toString();
    });
    this.#child.once('exit', () => {
      this.#exited = true;
    });
  }

  /** The game port, once the server prints its listening line; fails if it exits first. */
  port(): Promise<number> {
    return waitUntil(
      'the game server to listen',
      (wake) => {
        this.#child.stdout!.on('data', wake);
        this.#child.on('exit', wake);
        return () => {
          this.#child.stdout!.off('data', wake);
          this.#child.off('exit', wake);
        };
      },
      () => {
        const port = LISTENING.exec(this.#output)?.[1];
        if (port) return Number(port);
        if (this.#exited) throw new Error(`the game server exited before listening:\n${this.#output}`);
        return undefined;
      },
    );
  }

  /** Stops it (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
  async stop(): Promise<void> {
    if (this.#exited || this.#child.exitCode !== null) return;
    const exit = once(this.#child, 'exit');
    this.#child.kill('SIGTERM');
    const killer = setTimeout(() => this.#child.kill('SIGKILL'), KILL_AFTER_MS);
    await exit;
    clearTimeout(killer);
  }
}
