import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProbeResult } from './request-probe.js';

const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;

export interface LoginProbeProcess {
  /** The probe's result, and how late the probe's own event loop ran at most (ms). */
  stop(): Promise<ProbeResult & { probeLoopDelayMaxMs: number }>;
}

/**
 * The login probe of login-probe.ts in its own process: the game servers a storm simulates live in
 * the bench process, and a probe sharing their event loop would time that loop, not the service.
 */
export async function startLoginProbeProcess(
  serviceUrl: string,
  apiKey: string,
  bannedCount: number,
): Promise<LoginProbeProcess> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'login-probe-child.js');
  const child = fork(script, [serviceUrl, apiKey, String(bannedCount)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`login probe did not start within ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`login probe exited with ${code} before it started`));
    });
  });
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`login probe did not stop within ${STOP_TIMEOUT_MS} ms`));
        }, STOP_TIMEOUT_MS);
        child.on('message', (message) => {
          const { result, probeLoopDelayMaxMs } = message as { result?: ProbeResult; probeLoopDelayMaxMs: number };
          if (!result) return;
          clearTimeout(timer);
          resolve({ ...result, probeLoopDelayMaxMs });
        });
        child.send('stop');
      }),
  };
}
