import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDb } from '../../src/db/open-db.js';
import { sqliteChoices } from '../../src/service/db/dialect/sqlite-choices.js';
import { serviceStepNames } from '../../src/service/db/migrate.js';
import { DEFAULT_ADDRESS_HISTORY_DAYS } from '../../src/service/options.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';
import { DEFAULT_STREAM_RETAINED_CHANGES } from '../../src/service/stream/stream-settings.js';
import {
  type FixtureFacts,
  fillNetworkFixture,
  type NetworkShape,
} from '../../test/service/helpers/network-fixture.js';

/** Bump when the fixture's content changes; the schema's newest step is part of the cache key too. */
const FIXTURE_VERSION = 4;
const CACHE_DIR = join(tmpdir(), 'bailiff-bench-cache');

export interface NetworkFixtureCopy {
  /** A private copy the bench may write to. */
  path: string;
  facts: FixtureFacts;
  /** Seconds spent generating the fixture now; undefined when the cached file was used. */
  generatedSeconds: number | undefined;
}

function cacheKey(shape: NetworkShape): string {
  const schema = serviceStepNames(sqliteChoices).at(-1);
  return `service-network-v${FIXTURE_VERSION}-${schema}-${shape.players}p-${shape.stored}s-${shape.active}a-${shape.tickets}t`;
}

/** Writes the fixture in one transaction to `path`, checkpointed so the file alone holds it. */
async function generate(path: string, shape: NetworkShape, nowMs: number): Promise<FixtureFacts> {
  const storage = await openSqliteStorage(path);
  try {
    return await fillNetworkFixture(storage, shape, nowMs);
  } finally {
    await storage.close();
    const db = openDb(path);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
}

const DAY_MS = 86_400_000;
const PRUNE_BATCH = 10_000;

/**
 * Leaves the copy as a service that had run all along would have left it, so a bench times its
 * own work and not a backlog a fresh copy of the cache would hold: the temporary punishments that
 * ended as the days passed are announced, the change log is trimmed to what the stream retains
 * (the fixture wrote a change for each of its punishments), and addresses past their retention
 * are pruned.
 */
async function settleAsIfItHadRun(path: string, nowMs: number): Promise<void> {
  const db = openDb(path);
  try {
    db.prepare(
      `UPDATE service_punishments SET expiry_announced_at = @nowMs
       WHERE status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL
         AND started_at + duration <= @nowMs`,
    ).run({ nowMs });
  } finally {
    db.close();
  }
  const storage = await openSqliteStorage(path);
  try {
    await storage.stores.streamChanges.prune(DEFAULT_STREAM_RETAINED_CHANGES);
    const addresses = storage.stores.addressRetention;
    const cutOff = nowMs - DAY_MS * DEFAULT_ADDRESS_HISTORY_DAYS;
    while ((await addresses.deleteHistoryBefore(cutOff, PRUNE_BATCH)) === PRUNE_BATCH) {}
    while ((await addresses.clearForgottenLastAddresses(PRUNE_BATCH)) === PRUNE_BATCH) {}
  } finally {
    await storage.close();
  }
  const db2 = openDb(path);
  db2.pragma('wal_checkpoint(TRUNCATE)');
  db2.close();
}

/**
 * A copy of the network fixture of `shape` in `dir`. The fixture is generated once (about a
 * minute at 1,000,000 punishments) and cached under the system's temp directory by version and shape.
 * The copy is brought to where a running service would have kept it by `nowMs` (see settleAsIfItHadRun).
 */
export async function networkFixtureCopy(shape: NetworkShape, dir: string, nowMs: number): Promise<NetworkFixtureCopy> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const key = cacheKey(shape);
  const cached = join(CACHE_DIR, `${key}.db`);
  const factsFile = join(CACHE_DIR, `${key}.json`);
  let generatedSeconds: number | undefined;
  if (!existsSync(cached) || !existsSync(factsFile)) {
    const partial = join(CACHE_DIR, `${key}.${process.pid}.partial`);
    rmSync(partial, { force: true });
    const started = performance.now();
    const facts = await generate(partial, shape, nowMs);
    generatedSeconds = (performance.now() - started) / 1000;
    for (const suffix of ['-wal', '-shm']) rmSync(`${partial}${suffix}`, { force: true });
    renameSync(partial, cached);
    writeFileSync(factsFile, JSON.stringify(facts));
  }
  const path = join(dir, 'service.db');
  copyFileSync(cached, path);
  await settleAsIfItHadRun(path, nowMs);
  return { path, facts: JSON.parse(readFileSync(factsFile, 'utf8')) as FixtureFacts, generatedSeconds };
}
