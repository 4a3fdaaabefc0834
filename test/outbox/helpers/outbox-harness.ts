import { type Db, openDb } from '../../../src/db/open-db.js';
import type { Outbox, OutboxCall, OutboxSettings } from '../../../src/outbox/index.js';
import { createOutbox } from '../../../src/outbox/index.js';
import { FakeTime } from '../../support/fake-time.js';
import { recordingLogger } from '../../support/recording-logger.js';

export { recordingLogger } from '../../support/recording-logger.js';

import { createFakeClient, type FakeClient } from './fake-client.js';

export const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

export function ack(punishmentId: string): OutboxCall {
  return { operation: 'acknowledgePunishment', payload: { punishmentId, playerUuid: PLAYER, success: true } };
}

export interface Harness {
  db: Db;
  time: FakeTime;
  fake: FakeClient;
  outbox: Outbox;
  log: ReturnType<typeof recordingLogger>;
  events: Array<{ name: string; event: unknown }>;
  /** A second outbox on the same database (a restarted process). */
  reopen(settings?: Partial<OutboxSettings>): Outbox;
  rows(): Array<{ id: number; status: string; attempts: number; available_at: number; dead_reason: string | null }>;
}

/** An outbox on an in-memory database with fake time, client, random and ids. */
export function createHarness(
  settings: Partial<OutboxSettings> = {},
  random = () => 0.5,
  db = openDb(':memory:'),
): Harness {
  const time = new FakeTime();
  const fake = createFakeClient(time.now);
  const log = recordingLogger();
  const events: Array<{ name: string; event: unknown }> = [];
  let claims = 0;
  const make = (overrides: Partial<OutboxSettings>) => {
    const outbox = createOutbox({
      db,
      client: fake.client,
      clock: time,
      timers: time,
      random,
      ids: () => `claim-${++claims}`,
      logger: log.logger,
      settings: { requestsPerMinute: 1_000_000, ...settings, ...overrides },
    });
    for (const name of ['outbox:sent', 'outbox:retry', 'outbox:dead', 'outbox:paused', 'outbox:skipped'] as const) {
      outbox.events.on(name, (event: unknown) => events.push({ name, event }));
    }
    return outbox;
  };
  return {
    db,
    time,
    fake,
    log,
    events,
    outbox: make({}),
    reopen: make,
    rows: () =>
      db.prepare('SELECT id, status, attempts, available_at, dead_reason FROM outbox ORDER BY id').all() as never,
  };
}
