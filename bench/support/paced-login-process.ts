import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FixtureFacts } from '../../test/service/helpers/network-fixture.js';
import type { PacedStorm, PacedStormResult } from './paced-logins.js';

const REPLY_TIMEOUT_MS = 120_000;

export interface PacedLoginProcess {
  /** Sends the storm and resolves with what it saw, and how late the sender's own loop ran at most (ms). */
  storm(storm: PacedStorm): Promise<PacedStormResult & { senderLoopDelayMaxMs: number }>;
  stop(): void;
}

/**
 * A process of its own that sends paced login checks (paced-login-child.ts), its HTTP client
 * already warmed up, so a storm can start the moment a service is up and time the service alone.
 */
export async function startPacedLoginProcess(facts: FixtureFacts): Promise<PacedLoginProcess> {
  const child = fork(join(dirname(fileURLToPath(import.meta.url)), 'paced-login-child.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const reply = <T>(field: string, send: unknown) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`the login sender did not answer ${field} within ${REPLY_TIMEOUT_MS} ms`));
      }, REPLY_TIMEOUT_MS);
      const onMessage = (message: Record<string, unknown>) => {
        if (!(field in message)) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(message as T);
      };
      child.on('message', onMessage);
      if (send !== undefined) child.send(send as object);
    });
  try {
    await reply('started', undefined);
    await reply('warmed', { warm: facts });
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    storm: async (storm) => {
      const { result, loopDelayMaxMs } = await reply<{ result: PacedStormResult; loopDelayMaxMs: number }>('result', {
        storm,
      });
      return { ...result, senderLoopDelayMaxMs: loopDelayMaxMs };
    },
    stop: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}
