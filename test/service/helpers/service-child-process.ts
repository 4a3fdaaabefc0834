import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServiceOptions } from '../../../src/service/index.js';

/** The compiled child, found from test/ or dist/test/ (end-to-end tests run the built code). */
function builtChild(): string {
  let directory = import.meta.dirname;
  for (let depth = 0; depth < 6; depth += 1) {
    if (existsSync(join(directory, 'plugin.yml'))) {
      return join(directory, 'dist', 'test', 'service', 'helpers', 'service-child.js');
    }
    directory = dirname(directory);
  }
  throw new Error('plugin.yml not found above the service test helpers');
}

const START_TIMEOUT_MS = 30_000;

export interface ServiceChild {
  url: string;
  child: ChildProcess;
  /** SIGKILL, as an instance dies: nothing is closed or released. */
  kill(): Promise<void>;
  /** Asks it to close (as SIGTERM would) and waits for it to exit. */
  close(): Promise<void>;
}

/** Starts the built reference service in a child process with these options (JSON: no functions). */
export async function startServiceChild(options: ServiceOptions): Promise<ServiceChild> {
  const child = fork(builtChild(), [JSON.stringify(options)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the service child did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve((message as { url: string }).url);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service child exited with ${code} before it listened`));
    });
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;
  return {
    url,
    child,
    async kill() {
      if (isRunning()) child.kill('SIGKILL');
      await exited;
    },
    async close() {
      if (isRunning()) child.send('close');
      await exited;
    },
  };
}
