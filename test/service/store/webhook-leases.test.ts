import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage, openSqliteStorage } from '../../../src/service/store/open-storage.js';
import type { DeliveryLeases } from '../../../src/service/store/webhook-deliveries.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

const NOW_MS = 10_000;
const LEASE_MS = 60_000;

const entry = (webhookId: number, deliveryId: string) => ({
  webhookId,
  deliveryId,
  event: 'punishment.created',
  attemptedAtMs: NOW_MS,
  outcome: 'delivered',
  statusCode: 200,
  excerpt: '',
});

/** An endpoint with deliveries d1, d2 queued, written with the first storage. */
async function endpointWithTwoDeliveries(storage: KyselyStorage): Promise<number> {
  const { id: networkId } = await storage.db
    .insertInto('service_networks')
    .values({ name: 'leases' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: webhookId } = await storage.db
    .insertInto('service_webhooks')
    .values({
      network_id: networkId,
      name: 'audit',
      url: 'http://127.0.0.1:9/x',
      events: '["punishment.created"]',
      format: 'json',
      templates: '{}',
      max_attempts: 3,
      enabled: true,
      created_at: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const deliveryId of ['d1', 'd2']) {
    const delivery = { webhookId, deliveryId, event: 'punishment.created', body: '{}', nowMs: 0 };
    await storage.stores.webhookDeliveries.enqueue(delivery);
  }
  return webhookId;
}

const leases = (instanceId: string, nowMs = () => NOW_MS): DeliveryLeases => ({ instanceId, leaseMs: LEASE_MS, nowMs });

type Open = (options?: { leases?: DeliveryLeases }) => Promise<KyselyStorage>;

/** The lease rules of the one delivery store, with two instances sharing a database. */
function leaseRules(open: Open) {
  const opened: KyselyStorage[] = [];
  const instance: Open = async (options) => {
    const storage = await open(options);
    opened.push(storage);
    return storage;
  };
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
  });

  it('sends a head from one instance at a time: the other sees it leased, then takes the next', async () => {
    const a = await instance({ leases: leases('instance-a') });
    const b = await instance({ leases: leases('instance-b') });
    const webhookId = await endpointWithTwoDeliveries(a);
    const [fromA, fromB] = await Promise.all([
      a.stores.webhookDeliveries.queueHeads(10),
      b.stores.webhookDeliveries.queueHeads(10),
    ]);
    const due = [...fromA, ...fromB].filter((head) => head.availableAtMs <= NOW_MS);
    expect(due.map((head) => head.deliveryId)).toEqual(['d1']);
    const [holder, other] = fromA[0]!.availableAtMs <= NOW_MS ? [a, b] : [b, a];
    expect((await holder.stores.webhookDeliveries.queueHeads(10))[0]).toMatchObject({
      deliveryId: 'd1',
      availableAtMs: 0,
    });
    expect((await other.stores.webhookDeliveries.queueHeads(10))[0]!.availableAtMs).toBe(NOW_MS + LEASE_MS);

    const [head] = await holder.stores.webhookDeliveries.queueHeads(10);
    await holder.stores.webhookDeliveries.recordAttempt(
      head!,
      { action: 'delivered' },
      undefined,
      entry(webhookId, 'd1'),
    );
    expect((await other.stores.webhookDeliveries.queueHeads(10))[0]).toMatchObject({
      deliveryId: 'd2',
      availableAtMs: 0,
    });
  });

  it('gives a head to another instance once its lease ran out, and a retried one to whoever reads it due', async () => {
    let laterMs = NOW_MS;
    const a = await instance({ leases: leases('instance-a') });
    const b = await instance({ leases: leases('instance-b', () => laterMs) });
    const webhookId = await endpointWithTwoDeliveries(a);
    const [head] = await a.stores.webhookDeliveries.queueHeads(10);
    expect(head).toMatchObject({ deliveryId: 'd1', availableAtMs: 0 });
    laterMs = NOW_MS + LEASE_MS;
    expect((await b.stores.webhookDeliveries.queueHeads(10))[0]).toMatchObject({ deliveryId: 'd1', availableAtMs: 0 });
    // The answer a's request got is still recorded; the retry is nobody's until it is due.
    const retry = { action: 'retry', attempts: 1, waits: 0, availableAtMs: laterMs + 5_000 } as const;
    await a.stores.webhookDeliveries.recordAttempt(head!, retry, undefined, entry(webhookId, 'd1'));
    expect((await b.stores.webhookDeliveries.queueHeads(10))[0]).toMatchObject({ availableAtMs: laterMs + 5_000 });
    laterMs += 5_000;
    expect((await b.stores.webhookDeliveries.queueHeads(10))[0]).toMatchObject({
      availableAtMs: laterMs,
      attempts: 1,
    });
  });
}

describe('webhook leases of the one store', () => {
  describe('on SQLite (two services on one file)', () => {
    let dir: string;
    let files = 0;
    let path = '';
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'bailiff-leases-'));
    });
    beforeEach(() => {
      files += 1;
      path = join(dir, `service-${files}.sqlite`);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    leaseRules((options) => openSqliteStorage(path, options));

    it('a restarted service sends at once what the one before left unanswered', async () => {
      const first = await openSqliteStorage(path);
      await endpointWithTwoDeliveries(first);
      const [held] = await first.stores.webhookDeliveries.queueHeads(10);
      await first.close();
      const second = await openSqliteStorage(path);
      expect((await second.stores.webhookDeliveries.queueHeads(10))[0]).toEqual(held);
      await second.close();
    });
  });

  describe('on PostgreSQL', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => database?.drop());
    afterEach(async () => {
      const storage = await openPostgresStorage(database.url);
      await storage.db.deleteFrom('service_webhooks').execute();
      await storage.db.deleteFrom('service_networks').execute();
      await storage.close();
    });
    leaseRules((options) => openPostgresStorage(database.url, options));
  });
});
