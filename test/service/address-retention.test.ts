import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { ADDRESS_PRUNE_BATCH_SIZE } from '../../src/service/address-pruner.js';
import { CHAT_LOG_PRUNE_INTERVAL_MS } from '../../src/service/chat-log/chat-log-pruner.js';
import { FakeTime, settle } from '../support/fake-time.js';
import { JEB, ManualClock, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

// Issue 23, point 7: the players' address history has a retention and is pruned.
const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const dir = mkdtempSync(join(tmpdir(), 'bailiff-retention-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let t: TestService | undefined;
afterEach(() => t?.close());

const login = (service: TestService, uuid: string, username: string, ipAddress: string) =>
  service.call('POST', '/player/login', { minecraftUuid: uuid, username, ipAddress });

async function addressesOf(service: TestService, uuid: string) {
  const player = (await (await service.admin('GET', `/networks/alpha/players/${uuid}`)).json()) as {
    lastIp: string | null;
    addresses: { ipAddress: string }[];
  };
  return { lastIp: player.lastIp, addresses: player.addresses.map((address) => address.ipAddress) };
}

/** The address pruner's pending timers: the chat log's pruner (nothing to prune here) waits its 10 minutes beside it. */
const addressTimers = (timers: FakeTime) => timers.delays().filter((delay) => delay !== CHAT_LOG_PRUNE_INTERVAL_MS);

describe('address history retention', () => {
  it('deletes addresses last seen before the retention, on the pruning timer, and keeps the newer ones', async () => {
    const timers = new FakeTime();
    t = await startTestService({ timers, addressHistoryDays: 30 });
    expect(addressTimers(timers)).toEqual([HOUR_MS]);
    expect((await login(t, NOTCH, 'Notch', '203.0.113.7')).status).toBe(200);
    t.clock.advance(20 * DAY_MS);
    expect((await login(t, JEB, 'jeb_', '203.0.113.8')).status).toBe(200);
    expect((await login(t, NOTCH, 'Notch', '198.51.100.1')).status).toBe(200);
    t.clock.advance(11 * DAY_MS);

    timers.fireAll();
    // Notch's first address is 31 days old; the last address he was seen from is 11 days old.
    expect(await addressesOf(t, NOTCH)).toEqual({ lastIp: '198.51.100.1', addresses: ['198.51.100.1'] });
    expect(await addressesOf(t, JEB)).toEqual({ lastIp: '203.0.113.8', addresses: ['203.0.113.8'] });
    expect(addressTimers(timers)).toEqual([HOUR_MS]);

    t.clock.advance(20 * DAY_MS);
    timers.fireAll();
    expect(await addressesOf(t, NOTCH)).toEqual({ lastIp: null, addresses: [] });
    expect(await addressesOf(t, JEB)).toEqual({ lastIp: null, addresses: [] });
  });

  it('prunes at start, a batch per timer turn, until the backlog is gone', async () => {
    const dbPath = join(dir, 'backlog.db');
    const first = await startTestService({ dbPath, timers: new FakeTime() });
    expect((await login(first, NOTCH, 'Notch', '203.0.113.7')).status).toBe(200);
    const startMs = first.clock.now();
    await first.close();

    const db = openDb(dbPath);
    const { networkId } = db.prepare('SELECT network_id AS networkId FROM service_player_ips').get() as {
      networkId: number;
    };
    const insert = db.prepare(
      `INSERT INTO service_player_ips (network_id, ip, uuid, first_seen_at, last_seen_at)
       VALUES (@networkId, @ip, @uuid, @at, @at)`,
    );
    db.transaction(() => {
      for (let index = 0; index < 2_500; index += 1) {
        insert.run({ networkId, ip: `10.0.${index >> 8}.${index & 255}`, uuid: NOTCH, at: startMs - index * 1000 });
      }
    })();
    db.close();

    const timers = new FakeTime();
    t = await startTestService({ dbPath, timers, clock: new ManualClock(startMs + 91 * DAY_MS) });
    const countRows = () => {
      const reader = openDb(dbPath);
      try {
        return (reader.prepare('SELECT count(*) AS n FROM service_player_ips').get() as { n: number }).n;
      } finally {
        reader.close();
      }
    };
    // Every row (Notch's and the 2,500) is 91 days old: the run at start deleted a first batch and
    // asked for the next turn at once; each full batch does the same, the last one waits an hour.
    const stored = 2_501;
    const expected: { rows: number; delays: number[] }[] = [];
    for (let rows = stored - ADDRESS_PRUNE_BATCH_SIZE; rows > 0; rows -= ADDRESS_PRUNE_BATCH_SIZE) {
      expected.push({ rows, delays: [0] });
    }
    expected.push({ rows: 0, delays: [HOUR_MS] }, { rows: 0, delays: [HOUR_MS] });
    await settle();
    const turns = [{ rows: countRows(), delays: addressTimers(timers) }];
    while (turns.length < expected.length) {
      timers.fireAll();
      await settle();
      turns.push({ rows: countRows(), delays: addressTimers(timers) });
    }
    expect(turns).toEqual(expected);
    expect(await addressesOf(t, NOTCH)).toEqual({ lastIp: null, addresses: [] });
  });

  it('refuses a retention that is not a whole number of days', async () => {
    await expect(startTestService({ addressHistoryDays: 0 })).rejects.toThrow(
      'service option addressHistoryDays: must be an integer >= 1, received 0',
    );
  });
});
