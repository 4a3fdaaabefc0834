import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamFrame } from '../../../src/contract/schemas.js';
import type { ServiceOptions } from '../../../src/service/index.js';
import { recordingLogger } from '../../plugin/helpers/fakes.js';
import { startTestService, type TestService } from './fixture.js';
import type { StreamSession } from './stream-session.js';

/** Services of one test file, each on its own SQLite file with a recording logger; `close` ends them all. */
export function streamServices(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let files = 0;
  const started: TestService[] = [];
  return {
    async start(options: ServiceOptions = {}) {
      const { logger, lines } = recordingLogger();
      const dbPath = options.dbPath ?? join(dir, `service-${++files}.db`);
      const t = await startTestService({ pingIntervalMs: 60_000, dbPath, logger, ...options });
      started.push(t);
      return { t, lines, dbPath };
    },
    async close() {
      for (const service of started) await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function ban(t: TestService, targetUuid: string): Promise<string> {
  const response = await t.call('POST', '/punishments/dynamic', { targetUuid, typeOrdinal: 2, issuerName: 'mod' });
  return ((await response.json()) as { punishmentId: string }).punishmentId;
}

export function hello(frames: StreamFrame[]) {
  const first = frames[0];
  if (first?.type !== 'hello') throw new Error(`first frame is ${first?.type}`);
  return first;
}

export const snapshotIds = (frames: StreamFrame[]) =>
  frames.flatMap((frame) => (frame.type === 'snapshot' ? frame.punishments.map((p) => p.id) : []));
export const pushedIds = (frames: StreamFrame[]) =>
  frames.flatMap((frame) => (frame.type === 'punishment' ? [frame.punishment.id] : []));

export async function caughtUp(session: StreamSession) {
  await session.opened;
  return session.untilCaughtUp();
}

/** Waits (bounded) until the recorded log has a line matching `predicate`. */
export async function logged(
  lines: ReturnType<typeof recordingLogger>['lines'],
  predicate: (line: (typeof lines)[0]) => boolean,
) {
  const deadline = Date.now() + 10_000;
  while (!lines.some(predicate)) {
    if (Date.now() > deadline) throw new Error('expected log line not seen within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return lines.filter(predicate);
}
