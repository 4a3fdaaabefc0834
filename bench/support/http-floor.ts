import { fork } from 'node:child_process';
import { Agent } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { summarize } from '../result.js';
import { postLogin } from './login-post.js';

const here = dirname(fileURLToPath(import.meta.url));
const START_TIMEOUT_MS = 30_000;

/**
 * Sequential round trips to a bare node:http server in its own process, with the client a login
 * bench uses: what this machine's loopback and scheduler cost before the service does anything.
 */
export async function httpFloor(calls: number, warmUp: number, bodyOf: (n: number) => string) {
  const child = fork(join(here, 'http-floor-child.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the bare HTTP server did not start')), START_TIMEOUT_MS);
      child.once('message', (message) => {
        clearTimeout(timer);
        resolve((message as { url: string }).url);
      });
    });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const durations: number[] = [];
    for (let n = 0; n < warmUp + calls; n += 1) {
      const began = performance.now();
      await postLogin(agent, url, bodyOf(n), true);
      if (n >= warmUp) durations.push(performance.now() - began);
    }
    agent.destroy();
    return summarize(durations);
  } finally {
    child.kill();
  }
}
