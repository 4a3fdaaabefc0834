import { describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { createSync } from '../../plugin/sync/sync-service.js';
import type { Punishment, RecentQuery } from '../../src/contract/schemas.js';
import type { Scheduler } from '../../src/runtime/plugin-api.js';
import { FakeTime } from '../support/fake-time.js';
import { clientDoors, recordingLogger, servicePunishment } from './helpers/fakes.js';

const START = Date.parse('2026-03-01T00:00:00.000Z');
const HOUR_MS = 3_600_000;

/**
 * An injected `recent` over a list the test fills: punishments created in the window, newest
 * first, at most 100, as the contract says. Polls run by hand; catch-up polls are recorded.
 */
function harness(options: { backfillOnStart?: boolean } = {}) {
  const clock = new FakeTime(START);
  const created: Punishment[] = [];
  const queries: RecentQuery[] = [];
  const catchUps: Array<{ task: () => void | Promise<void>; delayMs: number }> = [];
  let regular: (() => void | Promise<void>) | undefined;
  const scheduler: Scheduler = {
    runLater: (task, delayMs) => {
      catchUps.push({ task, delayMs });
      return { cancel() {} };
    },
    repeat: (task) => {
      regular = task;
      return { cancel() {} };
    },
  };
  const { logger, lines } = recordingLogger();
  const sync = createSync({
    client: {
      recentPunishments: async (payload) => {
        const query = payload ?? {};
        queries.push(query);
        const since = clock.now() - (query.hours ?? 48) * HOUR_MS;
        const inWindow = created.filter((item) => Date.parse(item.createdAt) >= since);
        return { punishments: inWindow.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, 100) };
      },
      streamEndpoint: () => ({ url: 'ws://127.0.0.1:1/stream', headers: {} }),
      ...clientDoors(),
    },
    scheduler,
    sync: bailiffConfigSchema.parse({ sync: { stream: 'off', pollIntervalMs: 2000, minPollIntervalMs: 250 } }).sync,
    apply: () => 'new',
    clock,
    timers: { setTimeout: () => 0, clearTimeout: () => {} },
    random: () => 0,
    logger,
    backfillOnStart: options.backfillOnStart,
  });
  /** `count` punishments, one every `spacingMs`, ending now. */
  const createBurst = (count: number, spacingMs = 1000) => {
    for (let at = count - 1; at >= 0; at -= 1) {
      const createdAt = new Date(clock.now() - at * spacingMs).toISOString();
      created.push(servicePunishment({ id: `p-${created.length}`, createdAt }));
    }
  };
  const warnings = () => lines.filter((line) => line.level === 'warn' && line.message.includes('full page'));
  sync.start();
  return { sync, clock, createBurst, queries, catchUps, poll: () => regular!(), warnings };
}

describe('saturation of recent (contract-only services)', () => {
  it('warns exactly when a full page does not reach the newest item of the previous poll', async () => {
    const h = harness();
    h.createBurst(60);
    await h.poll();
    expect(h.warnings()).toHaveLength(0);

    // 99 more: the page is full and still holds the previous poll's newest item.
    h.clock.jump(99_000);
    h.createBurst(99);
    await h.poll();
    expect(h.warnings()).toHaveLength(0);
    expect(h.sync.status.saturation).toBeUndefined();

    // 150 new ones, one a second: the newest 100 come back, 50 are listed by nobody.
    h.clock.jump(150_000);
    h.createBurst(150);
    await h.poll();
    expect(h.warnings()).toHaveLength(1);
    expect(h.warnings()[0]!.fields).toMatchObject({ estimatedMissed: 50 });
    expect(h.sync.status.saturation).toEqual({ detectedAt: h.clock.now(), estimatedMissed: 50 });
  });

  it('a full page that overlaps the previous poll is not a warning, even with the whole window full', async () => {
    const h = harness();
    h.createBurst(100);
    await h.poll();
    h.clock.jump(5000);
    h.createBurst(5);
    await h.poll();
    await h.poll();
    expect(h.warnings()).toHaveLength(1); // only the first page, which had no previous poll
    expect(h.sync.status.saturation).toBeUndefined();
  });

  it('polls every minPollIntervalMs while pages overflow, and stops once a page reaches back', async () => {
    const h = harness();
    h.createBurst(10);
    await h.poll();
    h.clock.jump(400_000);
    h.createBurst(300);
    await h.poll();
    expect(h.catchUps.map((entry) => entry.delayMs)).toEqual([250]);

    h.clock.jump(250);
    h.createBurst(120, 1);
    await h.catchUps[0]!.task();
    expect(h.warnings()).toHaveLength(2);
    expect(h.catchUps).toHaveLength(2);

    h.clock.jump(250);
    h.createBurst(3, 1);
    await h.catchUps[1]!.task();
    expect(h.sync.status.saturation).toBeUndefined();
    expect(h.catchUps).toHaveLength(2);
  });

  it('a page that is not full never warns, however far apart the polls', async () => {
    const h = harness();
    h.createBurst(99);
    await h.poll();
    h.clock.jump(40 * HOUR_MS);
    h.createBurst(99);
    await h.poll();
    expect(h.warnings()).toHaveLength(0);
  });

  it('backfills with the widest window on an empty cache, then polls the configured one', async () => {
    const h = harness({ backfillOnStart: true });
    h.clock.jump(300 * 24 * HOUR_MS);
    await h.poll();
    await h.poll();
    expect(h.queries).toEqual([{ hours: 8760 }, { hours: 48 }]);
    expect(harness().queries).toEqual([]);
  });
});
