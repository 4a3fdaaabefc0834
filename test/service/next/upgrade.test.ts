import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../../../src/service/next/kysely-storage.js';
import { openPostgresStorage, openSqliteStorage } from '../../../src/service/next/open-storage.js';
import type { ServiceStoresPorts } from '../../../src/service/store/ports/stores.js';
import { openPostgresStorage as openLegacyPg } from '../../../src/service/store/postgres/postgres-storage.js';
import { PUBLIC_PAGE_START } from '../../../src/service/store/public-list.js';
import { openSqliteStorage as openLegacySqlite } from '../../../src/service/store/sqlite-storage.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { JEB, NOTCH, newPunishment } from '../store-conformance/fixtures.js';
import { postgresSchemaOf, sqliteSchemaOf } from './schema-catalogue.js';

const hashOf = (text: string) => createHash('sha256').update(text).digest();
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const NOW = 1_800_000_000_000;
const HOUR_MS = 3_600_000;

type OldStores = ServiceStoresPorts;
type Written = { network: number; account: number };

const appealTicket = (id: string, createdAtMs: number) => ({
  id,
  type: 'appeal',
  subject: 'Appeal',
  description: 'I did not grief',
  priority: 'normal',
  creatorUuid: NOTCH,
  creatorName: 'Notch',
  reportedPlayerUuid: null,
  reportedPlayerName: null,
  tags: ['appeal'],
  createdServer: null,
  replayUrl: null,
  chatMessages: [],
  createdAtMs,
});

/** Rows of every kind the old code wrote at its newest schema step, through its own stores. */
async function writeWithTheOldCode(stores: OldStores): Promise<Written> {
  const network = await stores.networks.ensureNetwork('alpha');
  await stores.networks.ensureServer(network, 'lobby', 'an-api-key');
  await stores.punishments.insert(newPunishment(network, 'p1', { createdAt: NOW - 3 * HOUR_MS }));
  await stores.punishments.insert(
    newPunishment(network, 'p2', { targetUuid: JEB, targetName: 'jeb_', typeOrdinal: 1, createdAt: NOW - HOUR_MS }),
  );
  await stores.publicList.setPublic(network, true);
  await stores.publicList.setIssuerLabel(network, 'The Council');
  await stores.appeals.setCooldownHours(network, 24);
  await stores.appeals.setUnappealable(network, 'p2', { markedBy: 'admin', markedAtMs: NOW - HOUR_MS });
  const appeal = { networkId: network, punishmentId: 'p1', playerName: 'Notch' };
  await stores.appeals.open({ ...appeal, token: 'first-link', ticket: appealTicket('a1', NOW - 2 * HOUR_MS) });
  await stores.appeals.decide({
    networkId: network,
    ticketId: 'a1',
    status: 'denied',
    answer: 'No.',
    decidedBy: 'mod',
    nowMs: NOW - HOUR_MS,
  });
  await stores.appeals.open({ ...appeal, token: 'second-link', ticket: appealTicket('a2', NOW) });
  await stores.appealCodes.issue({
    networkId: network,
    codeHash: hashOf('ABCD-EFGH'),
    punishmentId: 'p1',
    playerUuid: NOTCH,
    playerName: 'Notch',
    createdAtMs: NOW,
    expiresAtMs: NOW + HOUR_MS,
  });

  const account = (await stores.panelAccounts.create({
    networkId: network,
    username: 'Alice',
    passwordHash: 'argon2-hash',
    role: 'judge',
    nowMs: NOW,
  }))!;
  await stores.panelAccounts.setPendingTotp(account, SECRET, NOW);
  await stores.panelAccounts.confirmTotp(account, SECRET, 100, NOW);
  await stores.panelRoles.save(network, { name: 'judge', permissions: ['pardon', 'appeals'] }, NOW);
  await stores.panelRoles.setTwoFactorRequired(network, 'judge', true, NOW);
  await stores.panelSessions.create(hashOf('session'), {
    accountId: account,
    networkId: network,
    createdAt: NOW,
    expiresAt: NOW + HOUR_MS,
    stage: 'code',
  });
  await stores.panelDevices.remember(hashOf('device'), {
    accountId: account,
    createdAt: NOW,
    expiresAt: NOW + HOUR_MS,
  });
  await stores.panelRecoveryCodes.replace(account, [hashOf('recovery-1'), hashOf('recovery-2')], NOW);
  return { network, account };
}

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
      const old = openLegacySqlite({ path });
      written = await writeWithTheOldCode(old.stores);
      await old.close();
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
      const legacy = await openLegacyPg(old.url);
      written = await writeWithTheOldCode(legacy.stores);
      await legacy.close();
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
