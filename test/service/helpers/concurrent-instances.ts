import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServiceStores } from '../../../src/service/context.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { startTestService, type TestService } from './fixture.js';

/** Where the two copies of each request go: one instance twice, or one each to two instances on one database. */
export interface Instances {
  first: TestService;
  second: TestService;
  stores: ServiceStores;
  networkId: number;
  /** Closes the instances and drops the PostgreSQL database, if there is one. */
  close(): Promise<void>;
}

let instanceCount = 0;
/** Ids unique across instances, as every real instance's random ids are. */
const idsOf = (prefix: string) => {
  let next = 0;
  return () => `${prefix}-${++next}`;
};

async function onSqlite(tmpPrefix: string): Promise<Instances> {
  const dir = mkdtempSync(join(tmpdir(), tmpPrefix));
  const service = await startTestService({ dbPath: join(dir, 'service.db'), ids: idsOf(`s${++instanceCount}`) });
  const stores = service.service.context.stores;
  return {
    first: service,
    second: service,
    stores,
    networkId: (await stores.networks.findNetwork('alpha'))!,
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function onPostgres(database: TestDatabase, instances: 1 | 2): Promise<Instances> {
  const first = await startTestService({ databaseUrl: database.url, ids: idsOf(`p${++instanceCount}`) });
  const second =
    instances === 1 ? first : await startTestService({ databaseUrl: database.url, ids: idsOf(`p${++instanceCount}`) });
  const stores = first.service.context.stores;
  return {
    first,
    second,
    stores,
    networkId: (await stores.networks.findNetwork('alpha'))!,
    async close() {
      if (second !== first) await second.close();
      await first.close();
      await database.drop();
    },
  };
}

async function onNewPostgres(instances: 1 | 2): Promise<Instances> {
  const database = await createTestDatabase();
  try {
    return await onPostgres(database, instances);
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/** The three places concurrent requests meet: one SQLite instance, one PostgreSQL instance, two on one PostgreSQL. */
export function instanceSetups(tmpPrefix: string) {
  return [
    { name: 'SQLite', start: () => onSqlite(tmpPrefix) },
    { name: 'PostgreSQL, one instance', start: () => onNewPostgres(1) },
    { name: 'PostgreSQL, two instances', start: () => onNewPostgres(2) },
  ] as const;
}
