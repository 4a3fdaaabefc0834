import { describe, expect, it } from 'vitest';
import { Readiness } from '../../src/service/health/readiness.js';
import { parseGrace } from '../../src/service/servers/server-key.js';
import type { SchemaStatus } from '../../src/service/store/ports/storage.js';
import { compareSchema } from '../../src/service/store/schema-status.js';
import { FakeTime } from '../support/fake-time.js';
import { recordingLogger } from '../support/recording-logger.js';

/** A database whose answer the test gives (or never gives). */
function database() {
  let answer: ((status: SchemaStatus) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  return {
    storage: {
      schemaStatus: () =>
        new Promise<SchemaStatus>((resolve, reject) => {
          answer = resolve;
          fail = reject;
        }),
    },
    answer: (status: SchemaStatus) => answer!(status),
    fail: (error: Error) => fail!(error),
  };
}

describe('readiness', () => {
  it('is ready when the database answers with the current schema, and not while it drains', async () => {
    const time = new FakeTime();
    const db = database();
    const readiness = new Readiness(db.storage, time, recordingLogger().logger, 2000);
    const first = readiness.check();
    db.answer('current');
    expect(await first).toEqual({ isReady: true, database: 'reachable', schema: 'current', isDraining: false });
    readiness.startDraining();
    const draining = readiness.check();
    db.answer('current');
    expect(await draining).toMatchObject({
      isReady: false,
      isDraining: true,
      problem: 'the instance is shutting down',
    });
    expect(time.pendingCount).toBe(0);
  });

  it('gives up on a database that does not answer within the probe timeout', async () => {
    const time = new FakeTime();
    const db = database();
    const { logger, lines, text } = recordingLogger();
    const readiness = new Readiness(db.storage, time, logger, 2000);
    let report: Awaited<ReturnType<Readiness['check']>> | undefined;
    void readiness.check().then((value) => {
      report = value;
    });
    await time.advance(1999);
    expect(report).toBeUndefined();
    await time.advance(1);
    expect(report).toEqual({
      isReady: false,
      database: 'unreachable',
      schema: 'unknown',
      isDraining: false,
      problem: 'the database cannot be reached',
    });
    expect(lines.filter((line) => line.message === 'not ready')).toHaveLength(1);
    expect(text()).toContain('no answer within 2000 ms');
  });

  it('logs a change of answer once, keeps the database error out of the answer', async () => {
    const time = new FakeTime();
    const db = database();
    const { logger, lines, text } = recordingLogger();
    const readiness = new Readiness(db.storage, time, logger, 2000);
    for (let n = 0; n < 3; n += 1) {
      const check = readiness.check();
      db.fail(new Error('connect ECONNREFUSED 10.0.0.5:5432'));
      expect(await check).toMatchObject({ database: 'unreachable', problem: 'the database cannot be reached' });
    }
    const back = readiness.check();
    db.answer('ahead');
    expect(await back).toMatchObject({ isReady: false, schema: 'ahead' });
    expect(lines.filter((line) => line.message === 'not ready')).toHaveLength(2);
    expect(text()).toContain('10.0.0.5');
  });
});

describe('schema status', () => {
  const known = [{ version: 1 }, { version: 2 }, { version: 13 }];
  it('compares the applied steps with the known ones', () => {
    expect(compareSchema([1, 2, 13], known)).toBe('current');
    expect(compareSchema([1, 2], known)).toBe('behind');
    expect(compareSchema([1, 2, 13, 14], known)).toBe('ahead');
  });
});

describe('grace periods typed by an operator', () => {
  it.each([
    ['0', 0],
    ['now', 0],
    ['90s', 90_000],
    ['12h', 43_200_000],
    ['1d 12h', 129_600_000],
    ['30d', 2_592_000_000],
  ])('%s is %d ms', (text, ms) => {
    expect(parseGrace(text)).toBe(ms);
  });

  it.each([
    ['31d', 'grace: must be from 0 to 30 days'],
    ['permanent', "grace: 'permanent' is not a grace period"],
    ['soon', "grace: 'soon' is not a grace period"],
    ['', "grace: '' is not a grace period"],
  ])('refuses %j', (text, message) => {
    expect(() => parseGrace(text)).toThrow(message);
  });
});
