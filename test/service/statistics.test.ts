import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { DEFAULT_IP_BAN_PREFIX_LIMITS } from '../../src/ip/ip-ban-breadth.js';
import { silentLogger } from '../../src/ports/logger.js';
import { createContext } from '../../src/service/context.js';
import { startService } from '../../src/service/index.js';
import { ImportJobs } from '../../src/service/migration/import-job.js';
import { DEFAULT_RULES } from '../../src/service/rules/catalogue.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';
import { fillNetworkFixture, fixtureUuid } from './helpers/network-fixture.js';

const SHAPE = { players: 1_000, stored: 10_000, active: 1_000, tickets: 100 };
const NOW_MS = Date.parse('2026-11-01T00:00:00.000Z');

const STATISTICS = "SELECT idx FROM sqlite_stat1 WHERE tbl = 'service_punishments' AND idx IS NOT NULL ORDER BY idx";

/** Indexes of service_punishments the planner has statistics for, read from the file. */
function analyzedIndexes(path: string): string[] {
  const db = openDb(path, { readonly: true });
  try {
    if (db.prepare("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'").get() === undefined) return [];
    return db
      .prepare<[], { idx: string }>(STATISTICS)
      .all()
      .map((row) => row.idx);
  } finally {
    db.close();
  }
}

/** A file of the one store holding the network fixture, never analyzed. */
async function fixtureFile(): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'bailiff-statistics-'));
  const path = join(dir, 'service.db');
  const storage = await openSqliteStorage(path);
  try {
    await fillNetworkFixture(storage, SHAPE, NOW_MS);
  } finally {
    await storage.close();
  }
  return path;
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('planner statistics', () => {
  it('are written for a network that was never analyzed', async () => {
    const path = await fixtureFile();
    expect(analyzedIndexes(path)).toEqual([]);
    const storage = await openSqliteStorage(path);
    try {
      await storage.refreshStatistics();
    } finally {
      await storage.close();
    }
    expect(analyzedIndexes(path)).toEqual(
      expect.arrayContaining(['service_punishments_ip_ban', 'service_punishments_target_status']),
    );
  });

  it('are brought up to date when the service starts on an existing file', async () => {
    const path = await fixtureFile();
    const service = await startService({ port: 0, host: '127.0.0.1', dbPath: path });
    try {
      expect(analyzedIndexes(path)).toEqual(expect.arrayContaining(['service_punishments_target_status']));
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
    const path = join(dir, 'service.db');
    const storage = await openSqliteStorage(path);
    try {
      const context = createContext({
        storage,
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
      expect(analyzedIndexes(path)).toEqual(expect.arrayContaining(['service_punishments_target_status']));
    } finally {
      await storage.close();
    }
  });
});
