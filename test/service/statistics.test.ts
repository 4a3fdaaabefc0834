import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';
import { DEFAULT_IP_BAN_PREFIX_LIMITS } from '../../src/ip/ip-ban-breadth.js';
import { silentLogger } from '../../src/ports/logger.js';
import { createContext } from '../../src/service/context.js';
import { SERVICE_SCHEMA_MIGRATIONS } from '../../src/service/db/schema.js';
import { refreshStatistics } from '../../src/service/db/statistics.js';
import { startService } from '../../src/service/index.js';
import { ImportJobs } from '../../src/service/migration/import-job.js';
import { DEFAULT_RULES } from '../../src/service/rules/catalogue.js';
import { SqliteStorage } from '../../src/service/store/sqlite-storage.js';
import { fillNetworkFixture, fixtureUuid } from './helpers/network-fixture.js';

const SHAPE = { players: 1_000, stored: 10_000, active: 1_000, tickets: 100 };
const NOW_MS = Date.parse('2026-11-01T00:00:00.000Z');

/** Indexes of service_punishments the planner has statistics for. */
function analyzedIndexes(db: Db): string[] {
  return db
    .prepare<[], { idx: string }>(
      "SELECT idx FROM sqlite_stat1 WHERE tbl = 'service_punishments' AND idx IS NOT NULL ORDER BY idx",
    )
    .all()
    .map((row) => row.idx);
}

function fixtureDb(path: string): Db {
  const db = openDb(path);
  applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);
  fillNetworkFixture(db, SHAPE, NOW_MS);
  return db;
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('planner statistics', () => {
  it('are written for a network that was never analyzed', () => {
    const db = fixtureDb(':memory:');
    try {
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'").get()).toBeUndefined();
      refreshStatistics(db);
      expect(analyzedIndexes(db)).toEqual(
        expect.arrayContaining(['service_punishments_ip_ban', 'service_punishments_target_status']),
      );
    } finally {
      db.close();
    }
  });

  it('are brought up to date when the service starts on an existing file', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-statistics-'));
    const path = join(dir, 'service.db');
    fixtureDb(path).close();
    const service = await startService({ port: 0, host: '127.0.0.1', dbPath: path });
    try {
      const reader = openDb(path, { readonly: true });
      try {
        expect(analyzedIndexes(reader)).toEqual(expect.arrayContaining(['service_punishments_target_status']));
      } finally {
        reader.close();
      }
    } finally {
      await service.close();
    }
  });

  it('are written when a migration import completes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-statistics-'));
    const filePath = join(dir, 'export.json');
    const players = Array.from({ length: 2_000 }, (_, n) => ({
      minecraftUuid: fixtureUuid(n),
      usernames: [{ username: `player${n}`, date: NOW_MS }],
      punishments: [{ id: `m${n}`, typeOrdinal: 2, issued: NOW_MS - n, duration: -1, active: n % 10 === 0 }],
    }));
    writeFileSync(filePath, JSON.stringify({ players }));
    const db = openDb(':memory:');
    try {
      applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);
      const context = createContext({
        storage: new SqliteStorage(db),
        clock: { now: () => NOW_MS },
        ids: () => 'id',
        rules: DEFAULT_RULES,
        evasion: { sharedIpThreshold: 5, linkExpiryMs: 0, ipBanPrefixLimits: DEFAULT_IP_BAN_PREFIX_LIMITS },
        logger: silentLogger,
      });
      const networkId = await context.stores.networks.ensureNetwork('alpha');
      const serverId = await context.stores.networks.ensureServer(networkId, 'game-1', 'key');
      const jobs = new ImportJobs(context);
      await jobs.accept({ id: 'u1', networkId, serverId, total: 1 }, { path: filePath, size: 1 });
      await jobs.idle();
      expect((await context.stores.migrations.uploads(networkId))[0]).toMatchObject({ status: 'completed' });
      expect(analyzedIndexes(db)).toEqual(expect.arrayContaining(['service_punishments_target_status']));
    } finally {
      db.close();
    }
  });
});
