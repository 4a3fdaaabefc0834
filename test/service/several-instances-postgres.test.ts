import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/ports/logger.js';
import { systemTimers } from '../../src/ports/timers.js';
import { SharedTokenBuckets } from '../../src/service/http/shared-token-buckets.js';
import { PostgresChangeListener } from '../../src/service/sharing/change-listener.js';
import { PgDb } from '../../src/service/sharing/pg-db.js';
import { PgRateBuckets } from '../../src/service/sharing/rate-buckets.js';
import type { KyselyStorage } from '../../src/service/store/kysely-storage.js';
import { openPostgresStorage } from '../../src/service/store/open-storage.js';
import { PunishmentRenderer } from '../../src/service/store/punishment-renderer.js';
import { ChangeFollower } from '../../src/service/stream/change-follower.js';
import { FollowedChangeBus } from '../../src/service/stream/followed-change-bus.js';
import { PunishmentFeed } from '../../src/service/stream/punishment-feed.js';
import { FakeTime } from '../support/fake-time.js';
import { createTestDatabase, type TestDatabase, testPool } from '../support/postgres.js';
import { newPunishment } from './store-conformance/fixtures.js';

let database: TestDatabase;
const opened: KyselyStorage[] = [];
const closers: Array<() => Promise<void>> = [];

async function instance(instanceId: string, nowMs: () => number): Promise<KyselyStorage> {
  const storage = await openPostgresStorage(database.url, { leases: { instanceId, leaseMs: 60_000, nowMs } });
  opened.push(storage);
  return storage;
}

/** Waits for a condition the other instance brings about, for at most `ms`. */
async function within(ms: number, check: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const close of closers) await close();
  for (const storage of opened) await storage.close();
  await database?.drop();
});

describe('several instances on one PostgreSQL', () => {
  it('sends an endpoint’s head from one instance at a time: the other sees it leased, then takes the next', async () => {
    const nowMs = () => 10_000;
    const a = await instance('instance-a', nowMs);
    const b = await instance('instance-b', nowMs);
    const network = await a.stores.networks.ensureNetwork('leases');
    const webhook = await a.stores.webhooks.create(
      network,
      {
        name: 'audit',
        url: 'http://127.0.0.1:9/x',
        events: ['punishment.created'],
        format: 'json',
        templates: {},
        maxAttempts: 3,
        enabled: true,
      },
      0,
    );
    for (const id of ['d1', 'd2']) {
      await a.stores.webhookDeliveries.enqueue({
        webhookId: webhook,
        deliveryId: id,
        event: 'punishment.created',
        body: '{}',
        nowMs: 0,
      });
    }
    const [fromA, fromB] = await Promise.all([
      a.stores.webhookDeliveries.queueHeads(10),
      b.stores.webhookDeliveries.queueHeads(10),
    ]);
    const due = [...fromA, ...fromB].filter((head) => head.availableAtMs <= nowMs());
    // Exactly one instance got d1 as due; the other got it as not due before the lease ends.
    expect(due.map((head) => head.deliveryId)).toEqual(['d1']);
    const [holder, other] = fromA[0]!.availableAtMs <= nowMs() ? [a, b] : [b, a];
    expect((await holder.stores.webhookDeliveries.queueHeads(10))[0]).toMatchObject({
      deliveryId: 'd1',
      availableAtMs: 0,
    });
    expect((await other.stores.webhookDeliveries.queueHeads(10))[0]!.availableAtMs).toBeGreaterThan(nowMs());

    const head = (await holder.stores.webhookDeliveries.queueHeads(10))[0]!;
    await holder.stores.webhookDeliveries.recordAttempt(head, { action: 'delivered' }, undefined, {
      webhookId: webhook,
      deliveryId: 'd1',
      event: 'punishment.created',
      attemptedAtMs: nowMs(),
      outcome: 'delivered',
      statusCode: 200,
      excerpt: '',
    });
    expect((await other.stores.webhookDeliveries.queueHeads(10))[0]).toMatchObject({
      deliveryId: 'd2',
      availableAtMs: 0,
    });
  });

  it('shares a key’s bucket: what one instance spent, the other cannot', async () => {
    const time = new FakeTime(1_000_000);
    const size = { capacity: 10, refillPerMinute: 10 };
    const settings = { chunkFraction: 0.2, holdMs: 1000, maxKeys: 100, reservationsPerCleanup: 1000 };
    const poolA = testPool(database.url);
    const poolB = testPool(database.url);
    closers.push(
      () => poolA.end(),
      () => poolB.end(),
    );
    const a = new SharedTokenBuckets(new PgRateBuckets(new PgDb(poolA)), time, settings);
    const b = new SharedTokenBuckets(new PgRateBuckets(new PgDb(poolB)), time, settings);

    const fromA: boolean[] = [];
    for (let n = 0; n < 11; n += 1) fromA.push((await a.take('key:one', size)).isAllowed);
    expect(fromA).toEqual([...Array(10).fill(true), false]);
    const refused = await b.take('key:one', size);
    expect(refused).toMatchObject({ isAllowed: false });
    expect(refused.msUntilToken).toBeGreaterThan(0);
    expect((await b.take('key:two', size)).isAllowed).toBe(true);

    // Six seconds refill one token (10 a minute): one instance gets it, not both.
    time.jump(6_000);
    const [first, second] = await Promise.all([a.take('key:one', size), b.take('key:one', size)]);
    expect([first.isAllowed, second.isAllowed].filter(Boolean)).toHaveLength(1);
  });

  it('publishes a punishment written through one instance into the feed of the other', async () => {
    const a = await instance('feed-a', Date.now);
    const b = await instance('feed-b', Date.now);
    const network = await a.stores.networks.ensureNetwork('feeds');
    const feed = new PunishmentFeed();
    const published: string[] = [];
    feed.on('punishment:changed', (_networkId, punishment, sequence) => published.push(`${punishment.id}@${sequence}`));
    const follower = new ChangeFollower(
      b.stores.streamChanges,
      new PunishmentRenderer(silentLogger),
      feed,
      silentLogger,
      {
        pageSize: 100,
        maxPages: 10,
      },
    );
    const listener = new PostgresChangeListener(
      () => new pg.Client({ connectionString: database.url }),
      systemTimers,
      silentLogger,
      { baseDelayMs: 50, maxDelayMs: 500 },
    );
    const bus = new FollowedChangeBus(follower, b.stores.streamChanges, listener);
    closers.push(() => bus.close());
    await bus.start();

    await a.stores.punishments.insert(newPunishment(network, 'p1'));
    await within(5_000, () => published.length === 1);
    await a.stores.punishments.insert(newPunishment(network, 'p2'));
    await a.stores.punishments.setStatus(network, 'p1', 'pardoned', 2_000);
    await within(5_000, () => published.length === 3);
    expect(published).toEqual(['p1@1', 'p2@2', 'p1@3']);

    // The listener's connection is cut: it reconnects and reads what was written meanwhile.
    await a.pool!.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN bailiff_changes'`,
    );
    await a.stores.punishments.insert(newPunishment(network, 'p3'));
    await within(5_000, () => published.length === 4);
    expect(published.at(-1)).toBe('p3@4');
  });

  it('announces each ended punishment from one instance: the other skips the rows the first is announcing', async () => {
    const a = await instance('expiry-a', Date.now);
    const b = await instance('expiry-b', Date.now);
    const network = await a.stores.networks.ensureNetwork('expiries');
    for (const id of ['e1', 'e2']) {
      await a.stores.punishments.insert(newPunishment(network, id, { duration: 1_000, startedAt: 1_000 }));
    }
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let seenByA: string[] = [];
    const announcing = a.transaction(async (stores) => {
      seenByA = (await stores.expiries.endedUnannounced(10_000, 10)).map((row) => row.id);
      await held;
      for (const id of seenByA) await stores.expiries.markAnnounced(network, id, 10_000);
    });
    await within(5_000, () => seenByA.length > 0);
    const seenByB = await b.transaction(async (stores) =>
      (await stores.expiries.endedUnannounced(10_000, 10)).map((row) => row.id),
    );
    release();
    await announcing;
    expect(seenByA.sort()).toEqual(['e1', 'e2']);
    expect(seenByB).toEqual([]);
    expect(await b.transaction(async (stores) => stores.expiries.endedUnannounced(10_000, 10))).toEqual([]);
  });
});
