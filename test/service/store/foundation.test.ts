import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage, openSqliteStorage } from '../../../src/service/store/open-storage.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

const dir = mkdtempSync(join(tmpdir(), 'bailiff-next-'));
const databases: TestDatabase[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const db of databases) await db.drop();
});

async function exercise(storage: KyselyStorage) {
  const base = {
    networkId: 1,
    targetName: 'Steve',
    issuerName: 'Mod',
    typeOrdinal: 2,
    reason: 'x',
    duration: -1,
    status: 'active',
  };
  await storage.db
    .insertInto('service_networks')
    .values({ name: 'net' })
    .onConflict((c) => c.doNothing())
    .execute();
  expect(await storage.stores.punishments.insert({ ...base, id: 'A', targetUuid: 'U1', createdAt: 1000 })).toBe(true);
  expect(await storage.stores.punishments.insert({ ...base, id: 'A', targetUuid: 'U1', createdAt: 1000 })).toBe(false);
  await storage.transaction(async (stores) => {
    await stores.punishments.insert({ ...base, id: 'B', targetUuid: 'u1', createdAt: 1000 });
    await stores.punishments.insert({
      ...base,
      id: 'C',
      targetUuid: 'u2',
      createdAt: 2000,
      data: { linkedBanId: 'A' },
    });
  });
  await expect(
    storage.transaction(async (stores) => {
      await stores.punishments.insert({ ...base, id: 'D', targetUuid: 'u2', createdAt: 3000 });
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect((await storage.stores.punishments.recent(1, 0, 10)).map((r) => r.id)).toEqual(['C', 'B', 'A']);
  expect((await storage.stores.punishments.activeFor(1, 'U1')).map((r) => r.id).sort()).toEqual(['A', 'B']);
  expect(await storage.stores.punishments.setStatus(1, 'A', 'pardoned', 5000)).toBe(true);
  expect(await storage.stores.punishments.setStatus(1, 'A', 'pardoned', 5000)).toBe(false);
  expect((await storage.stores.punishments.find(1, 'A'))?.status).toBe('pardoned');
  const changes = await storage.db
    .selectFrom('service_stream_changes')
    .select(['sequence', 'punishment_id'])
    .orderBy('sequence')
    .execute();
  expect(changes.map((c) => c.punishment_id)).toEqual(['A', 'B', 'C', 'A']);
  await expect(storage.transaction(async () => storage.stores.punishments.find(1, 'A'))).rejects.toThrow(
    /inside storage.transaction/,
  );
}

describe('the one storage', () => {
  it('SQLite: a new file', async () => {
    const storage = await openSqliteStorage(join(dir, 'new.sqlite'));
    await exercise(storage);
    await storage.close();
  });

  describe('PostgreSQL', () => {
    let fresh: TestDatabase;
    beforeAll(async () => {
      fresh = await createTestDatabase();
      databases.push(fresh);
    });

    it('a new database', async () => {
      const storage = await openPostgresStorage(fresh.url);
      await exercise(storage);
      await storage.close();
    });
  });
});
