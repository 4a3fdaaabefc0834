import { sql } from 'kysely';
import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresChoices } from '../../../src/service/db/dialect/postgres-choices.js';
import { MIGRATION_TABLE, serviceStepNames } from '../../../src/service/db/migrate.js';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage } from '../../../src/service/store/open-storage.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { newPunishment } from './fixtures.js';

const WAIT_FOR_LOCK_MS = 10_000;

/** Several instances of the service on one PostgreSQL database, as a network run at scale has them. */
describe('PostgreSQL storage shared by several instances', () => {
  const opened: KyselyStorage[] = [];
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.close();
    for (const database of databases.splice(0)) await database.drop();
  });

  async function instances(count: number): Promise<KyselyStorage[]> {
    const database = await createTestDatabase();
    databases.push(database);
    const storages = await Promise.all(Array.from({ length: count }, () => openPostgresStorage(database.url)));
    opened.push(...storages);
    return storages;
  }

  it('migrates once when instances start together', async () => {
    const [first] = await instances(4);
    const steps = await sql<{ name: string }>`SELECT name FROM ${sql.table(MIGRATION_TABLE)} ORDER BY name`.execute(
      first!.db,
    );
    expect(steps.rows.map((row) => row.name)).toEqual(serviceStepNames(postgresChoices));
  });

  it('hands out sequences in commit order: a writer waits for the open transaction of another instance', async () => {
    const [one, two] = await instances(2);
    const alpha = await one!.stores.networks.ensureNetwork('alpha');
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstInserted: () => void = () => {};
    const inserted = new Promise<void>((resolve) => {
      firstInserted = resolve;
    });
    const first = one!.transaction(async (stores) => {
      await stores.punishments.insert(newPunishment(alpha, 'first'));
      firstInserted();
      await held;
    });
    await inserted;
    const second = two!.stores.punishments.insert(newPunishment(alpha, 'second'));
    await waitForLockWaiter(two!.pool!);

    // Neither is visible yet: the log never shows a later sequence before an earlier one commits.
    expect((await two!.stores.streamChanges.head(alpha)).sequence).toBe(0);
    release();
    await Promise.all([first, second]);
    const changes = await two!.stores.streamChanges.changesAfter(alpha, 0, 10);
    expect(changes.map((change) => [change.sequence, change.id])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
  });

  it('gives concurrent writers of several instances distinct sequences without gaps', async () => {
    const storages = await instances(3);
    const alpha = await storages[0]!.stores.networks.ensureNetwork('alpha');
    const beta = await storages[0]!.stores.networks.ensureNetwork('beta');
    await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        storages[index % 3]!.transaction(async (stores) => {
          const networkId = index % 2 === 0 ? alpha : beta;
          await stores.punishments.insert(newPunishment(networkId, `p${index}`));
          await stores.punishments.setStatus(networkId, `p${index}`, 'pardoned', 2_000);
        }),
      ),
    );
    for (const networkId of [alpha, beta]) {
      const sequences = (await storages[1]!.stores.streamChanges.changesAfter(networkId, 0, 100)).map(
        (change) => change.sequence,
      );
      expect(sequences).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
    }
  });
});

/** Resolves once some connection waits for a lock (the change-log lock of the other instance's transaction). */
async function waitForLockWaiter(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + WAIT_FOR_LOCK_MS;
  while (Date.now() < deadline) {
    const waiting = await pool.query(
      "SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
    );
    if (Number(waiting.rows[0].waiting) > 0) return;
    await new Promise((done) => setTimeout(done, 20));
  }
  throw new Error(`no writer waited for a lock within ${WAIT_FOR_LOCK_MS} ms`);
}
