import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresChoices } from '../../../src/service/db/dialect/postgres-choices.js';
import { describeDatabaseUrl } from '../../../src/service/db/dialect/postgres-driver.js';
import { MIGRATION_TABLE, serviceStepNames } from '../../../src/service/db/migrate.js';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage } from '../../../src/service/store/open-storage.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';

describe('the one storage on PostgreSQL', () => {
  let database: TestDatabase;
  let storage: KyselyStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    storage = await openPostgresStorage(database.url);
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
  });

  it('records every schema step, and opening again migrates nothing', async () => {
    const again = await openPostgresStorage(database.url);
    await again.close();
    const steps = await storage.pool!.query(`SELECT name FROM ${MIGRATION_TABLE} ORDER BY name`);
    expect(steps.rows.map((row) => row.name)).toEqual(serviceStepNames(postgresChoices));
  });

  it('reads BIGINT as a number, and refuses one no number holds exactly', async () => {
    const safe = await storage.pool!.query(
      'SELECT 8640000000000000::bigint AS ms, count(*) AS rows FROM service_networks',
    );
    expect(safe.rows[0]).toEqual({ ms: 8_640_000_000_000_000, rows: expect.any(Number) });
    await expect(storage.pool!.query('SELECT 9007199254740993::bigint AS big')).rejects.toThrow(
      /BIGINT 9007199254740993 is outside the range of a safe integer/,
    );
  });

  it('refreshes statistics', async () => {
    await storage.refreshStatistics();
    const analyzed = await storage.pool!.query(
      "SELECT last_analyze FROM pg_stat_user_tables WHERE relname = 'service_punishments'",
    );
    expect(analyzed.rows[0].last_analyze).not.toBeNull();
  });

  it('names a database it cannot open without its password', async () => {
    const url = new URL(database.url);
    url.password = 'hunter2-secret';
    url.pathname = '/no_such_database';
    const failure = openPostgresStorage(url.toString());
    await expect(failure).rejects.toThrow(/cannot open the PostgreSQL database .*no_such_database/);
    await expect(failure).rejects.not.toThrow(/hunter2-secret/);
    expect(describeDatabaseUrl('postgres://user:pw@db.example:5432/bailiff')).toBe(
      'postgres://user:***@db.example:5432/bailiff',
    );
  });
});
