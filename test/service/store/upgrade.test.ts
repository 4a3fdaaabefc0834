import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage, openSqliteStorage } from '../../../src/service/store/open-storage.js';
import { PUBLIC_PAGE_START } from '../../../src/service/store/ports/public-list.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { writeLegacyPostgres, writeLegacySqliteFile } from './legacy-fixtures.js';
import { postgresSchemaOf, sqliteSchemaOf } from './schema-catalogue.js';

const hashOf = (text: string) => createHash('sha256').update(text).digest();
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const NOW = 1_800_000_000_000;
const HOUR_MS = 3_600_000;

type Written = { network: number; account: number };

/**
 * What the release before the one store wrote into the fixtures (legacy-fixtures.ts), through its
 * own stores: networks alpha, server lobby; punishments p1 (Notch, ban) and p2 (jeb_, mute, not
 * appealable); a public list labelled "The Council"; an appeal cooldown of 24 hours; appeal a1
 * (first-link, denied "No.") and a2 (second-link, open); appeal code ABCD-EFGH of p1; account Alice
 * (role judge, two-factor confirmed at step 100), role judge (pardon, appeals; two-factor required),
 * a session at its code stage, a remembered device and recovery codes 1 and 2.
 */
const WRITTEN: Written = { network: 1, account: 1 };

/** Everything the old code wrote, read back through the one store. */
async function readWithTheOneStore(storage: KyselyStorage, { network, account }: Written) {
  const stores = storage.stores;
  expect((await stores.punishments.find(network, 'p2'))?.target_name).toBe('jeb_');
  expect(await stores.publicList.isPublic(network)).toBe(true);
  expect(await stores.publicList.issuerLabel(network)).toBe('The Council');
  const page = await stores.publicList.page(network, undefined, PUBLIC_PAGE_START, 10);
  expect(page.map((row) => [row.targetName, row.kind])).toEqual([
    ['jeb_', 'mute'],
    ['Notch', 'ban'],
  ]);

  expect(await stores.appeals.cooldownHours(network)).toBe(24);
  expect(await stores.appeals.unappealable(network, 'p2')).toEqual({ markedBy: 'admin', markedAt: NOW - HOUR_MS });
  expect(await stores.appeals.lastDeniedAt(network, 'p1')).toBe(NOW - HOUR_MS);
  expect(await stores.appeals.openAppealOf(network, 'p1')).toBe('a2');
  expect(await stores.appeals.byToken('first-link')).toMatchObject({ ticketId: 'a1', status: 'denied', answer: 'No.' });
  expect((await stores.tickets.find(network, 'a2'))?.description).toBe('I did not grief');
  expect(await stores.appealCodes.byHash(network, hashOf('ABCD-EFGH'))).toMatchObject({ punishmentId: 'p1' });
  expect(await stores.appealCodes.use(network, hashOf('ABCD-EFGH'), NOW + 1)).toBe(true);

  expect(await stores.panelAccounts.findByUsername('alice')).toMatchObject({ id: account, twoFactorEnabled: true });
  expect(await stores.panelAccounts.totpOf(account)).toEqual({ secret: SECRET, pendingSecret: null, lastStep: 100 });
  expect(await stores.panelAccounts.useTotpStep(account, SECRET, 100)).toBe(false);
  expect(await stores.panelAccounts.useTotpStep(account, SECRET, 101)).toBe(true);
  expect(await stores.panelRoles.find(network, 'judge')).toEqual({ name: 'judge', permissions: ['pardon', 'appeals'] });
  expect(await stores.panelRoles.twoFactorRoles(network)).toEqual(['judge']);
  expect(await stores.panelSessions.find(hashOf('session'), NOW)).toMatchObject({ accountId: account, stage: 'code' });
  expect(await stores.panelDevices.find(hashOf('device'), NOW)).toMatchObject({ accountId: account });
  expect(await stores.panelRecoveryCodes.countUnused(account)).toBe(2);
  expect(await stores.panelRecoveryCodes.use(account, hashOf('recovery-2'), NOW)).toBe(true);
}

const dir = mkdtempSync(join(tmpdir(), 'bailiff-upgrade-'));
const databases: TestDatabase[] = [];
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

/**
 * A database made by the old code at its newest step is taken over by the one schema history with
 * nothing lost: every row reads back through the one store, and its schema is the one a new
 * database gets (the catalogue of each compared).
 */
describe('an existing database upgrades in place', () => {
  describe('SQLite', () => {
    const path = join(dir, 'old.sqlite');
    let storage: KyselyStorage;
    let written: Written;
    beforeAll(async () => {
      writeLegacySqliteFile(path);
      written = WRITTEN;
      storage = await openSqliteStorage(path);
    });
    afterAll(async () => storage?.close());

    it('keeps every row, read back through the one store', async () => {
      await readWithTheOneStore(storage, written);
    });

    it('has the schema of a new database', async () => {
      const newPath = join(dir, 'new.sqlite');
      await (await openSqliteStorage(newPath)).close();
      expect(sqliteSchemaOf(path)).toEqual(sqliteSchemaOf(newPath));
    });
  });

  describe('PostgreSQL', () => {
    let old: TestDatabase;
    let storage: KyselyStorage;
    let written: Written;
    beforeAll(async () => {
      old = await createTestDatabase();
      databases.push(old);
      await writeLegacyPostgres(old.url);
      written = WRITTEN;
      storage = await openPostgresStorage(old.url);
    });
    afterAll(async () => storage?.close());

    it('keeps every row, read back through the one store', async () => {
      await readWithTheOneStore(storage, written);
    });

    it('has the schema of a new database', async () => {
      const made = await createTestDatabase();
      databases.push(made);
      await (await openPostgresStorage(made.url)).close();
      expect(await postgresSchemaOf(old.url)).toEqual(await postgresSchemaOf(made.url));
    });
  });
});
