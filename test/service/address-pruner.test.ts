import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/ports/logger.js';
import { AddressPruner } from '../../src/service/address-pruner.js';
import type { AddressRetentionPort } from '../../src/service/store/ports/address-retention.js';
import { FakeTime, settle } from '../support/fake-time.js';
import { ManualClock } from './helpers/fixture.js';

const SETTINGS = { retentionMs: 1000, intervalMs: 60_000, batchSize: 10 };

function recordingLogger() {
  const errors: { message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (message, fields) => errors.push({ message, ...(fields ? { fields } : {}) }),
  };
  return { logger, errors };
}

describe('AddressPruner', () => {
  it('cuts at now minus the retention, clears last addresses once the history is done, and stops on close', async () => {
    const clock = new ManualClock(50_000);
    const timers = new FakeTime();
    const calls: string[] = [];
    const store = {
      deleteHistoryBefore: (beforeMs: number, limit: number) => {
        calls.push(`delete before ${beforeMs} limit ${limit}`);
        return calls.length === 1 ? limit : 3;
      },
      clearForgottenLastAddresses: (limit: number) => {
        calls.push(`clear limit ${limit}`);
        return 0;
      },
    } as unknown as AddressRetentionPort;
    const pruner = new AddressPruner(store, clock, timers, recordingLogger().logger, SETTINGS);
    pruner.start();
    await settle();
    expect(timers.delays()).toEqual([0]);
    timers.fireAll();
    await settle();
    expect(calls).toEqual(['delete before 49000 limit 10', 'delete before 49000 limit 10', 'clear limit 10']);
    expect(timers.delays()).toEqual([60_000]);
    await pruner.close();
    expect(timers.delays()).toEqual([]);
  });

  it('logs a failing run and tries again at the next interval', async () => {
    const timers = new FakeTime();
    const { logger, errors } = recordingLogger();
    const store = {
      deleteHistoryBefore: () => {
        throw new Error('database is locked');
      },
    } as unknown as AddressRetentionPort;
    new AddressPruner(store, new ManualClock(), timers, logger, SETTINGS).start();
    await settle();
    expect(errors).toEqual([
      { message: 'address history pruning failed', fields: { error: expect.stringContaining('database is locked') } },
    ]);
    expect(timers.delays()).toEqual([60_000]);
  });
});
