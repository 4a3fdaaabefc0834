import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openDb } from '../src/db/open-db.js';
import { AuthFailureThrottle } from '../src/service/http/auth-throttle.js';
import { startService } from '../src/service/index.js';
import { openSqliteStorage } from '../src/service/store/open-storage.js';
import { ADMIN_TOKEN, KEY_A1, testSeed } from '../test/service/helpers/fixture.js';
import { closeAgents, requestFrom } from '../test/service/helpers/http-from.js';
import { multipartChunks, streamUpload } from '../test/service/helpers/multipart-stream.js';
import { startServiceProcess } from '../test/service/helpers/service-process.js';
import { type BenchResult, summarize } from './result.js';
import { migrateSqliteFile } from './support/migrated-file.js';

const MB = 1024 * 1024;
const GUESSES = 200;
const PRUNE_ROWS = 100_000;
const PRUNE_BATCH = 1000;
const THROTTLE_ADDRESSES = 100_000;
const DAY_MS = 86_400_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGcMb = () => {
  gc();
  return process.memoryUsage().heapUsed / MB;
};

/** The 80 x 1 MiB upload of issue 23 against a service process: its RSS growth and the answer. */
async function uploadMemory(directory: string): Promise<BenchResult> {
  const service = await startServiceProcess({ seed: testSeed(), adminToken: ADMIN_TOKEN, tmpDirectory: directory });
  try {
    await streamUpload(service.url, KEY_A1, multipartChunks(0, 0, '{"players": []}'));
    const baseline = service.rssBytes();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, service.rssBytes());
    }, 5);
    const started = performance.now();
    const answer = await streamUpload(service.url, KEY_A1, multipartChunks(80, MB, '{"players": []}')).finally(() =>
      clearInterval(sampler),
    );
    const ms = performance.now() - started;
    peak = Math.max(peak, service.rssBytes());
    return {
      name: 'upload with 80 x 1 MiB fields before the file: service RSS growth (peak)',
      unit: 'MB',
      value: (peak - baseline) / MB,
      target: '< 40 MB',
      notes: `answered ${answer.status} in ${ms.toFixed(0)} ms; RSS ${(baseline / MB).toFixed(0)} MB before`,
    };
  } finally {
    await service.kill();
  }
}

/** 200 wrong keys from 127.0.0.1, a good key from 127.0.0.2 after each guess. */
async function guessing(): Promise<BenchResult[]> {
  const service = await startService({ port: 0, seed: testSeed(), adminToken: ADMIN_TOKEN });
  const types = `${service.url}/v1/minecraft/punishments/types`;
  try {
    const statuses: number[] = [];
    const goodKeyMs: number[] = [];
    const goodStatuses = new Set<number>();
    const started = performance.now();
    for (let index = 0; index < GUESSES; index += 1) {
      const guess = await requestFrom('127.0.0.1', types, {
        headers: { 'x-api-key': `guessed-key-${index}-000000000` },
      });
      statuses.push(guess.status);
      const goodStarted = performance.now();
      const good = await requestFrom('127.0.0.2', types, { headers: { 'x-api-key': KEY_A1 } });
      goodKeyMs.push(performance.now() - goodStarted);
      goodStatuses.add(good.status);
    }
    const totalMs = performance.now() - started;
    const firstRefusal = statuses.indexOf(429);
    return [
      {
        name: `wrong keys from one address answered 401 before the first 429 (of ${GUESSES})`,
        unit: 'requests',
        value: firstRefusal === -1 ? GUESSES : firstRefusal,
        target: '<= 10',
        notes: `${statuses.filter((status) => status === 429).length} x 429; ${GUESSES} guesses and ${GUESSES} good calls in ${totalMs.toFixed(0)} ms`,
      },
      {
        name: 'good key from another address during the guessing: round trip',
        unit: 'ms',
        ...summarize(goodKeyMs),
        notes: `statuses ${[...goodStatuses].join(', ')}`,
      },
    ];
  } finally {
    closeAgents();
    await service.close();
  }
}

/** 100,000 addresses past the retention, deleted a batch at a time as the pruner does. */
async function pruning(directory: string): Promise<BenchResult[]> {
  const path = join(directory, 'prune.db');
  await migrateSqliteFile(path);
  const db = openDb(path);
  const nowMs = Date.now();
  try {
    const networkId = Number(db.prepare("INSERT INTO service_networks (name) VALUES ('bench')").run().lastInsertRowid);
    const insert = db.prepare(
      `INSERT INTO service_player_ips (network_id, ip, uuid, first_seen_at, last_seen_at) VALUES (?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let row = 0; row < PRUNE_ROWS * 2; row += 1) {
        // Every other row is old: half the table is past the retention.
        const at = row % 2 === 0 ? nowMs - 200 * DAY_MS : nowMs - DAY_MS;
        const uuid = `00000000-0000-4000-8000-${(row % 50_000).toString(16).padStart(12, '0')}`;
        insert.run(networkId, `10.${(row >> 16) & 255}.${(row >> 8) & 255}.${row & 255}`, uuid, at, at);
      }
    })();
  } finally {
    db.close();
  }
  const storage = await openSqliteStorage(path);
  try {
    const store = storage.stores.addressRetention;
    const batchMs: number[] = [];
    let deleted = 0;
    const started = performance.now();
    for (let batch = 0; batch < PRUNE_ROWS / PRUNE_BATCH + 1; batch += 1) {
      const batchStarted = performance.now();
      const count = await store.deleteHistoryBefore(nowMs - 90 * DAY_MS, PRUNE_BATCH);
      batchMs.push(performance.now() - batchStarted);
      deleted += count;
      if (count < PRUNE_BATCH) break;
    }
    const totalMs = performance.now() - started;
    return [
      {
        name: `address history pruning: one batch of ${PRUNE_BATCH} rows (event loop held)`,
        unit: 'ms',
        ...summarize(batchMs),
        notes: `${deleted} of ${PRUNE_ROWS * 2} rows deleted in ${batchMs.length} batches, ${totalMs.toFixed(0)} ms in all`,
      },
    ];
  } finally {
    await storage.close();
  }
}

/** Wrong secrets from 100,000 addresses: what the throttle keeps. */
function throttleMemory(): BenchResult {
  const before = heapAfterGcMb();
  const throttle = new AuthFailureThrottle({ now: () => Date.now() }, 10);
  for (let index = 0; index < THROTTLE_ADDRESSES; index += 1) {
    throttle.recordFailure(`10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`);
  }
  const after = heapAfterGcMb();
  return {
    name: `guessing throttle after wrong secrets from ${THROTTLE_ADDRESSES} addresses: heap growth`,
    unit: 'MB',
    value: after - before,
    notes: `${throttle.trackedAddresses} addresses remembered (cap 10,000)`,
  };
}

/**
 * Issue 23 on the service side: the hostile upload's memory, guessing keys, pruning the address
 * history, and what the guessing throttle holds.
 */
export async function run(): Promise<BenchResult[]> {
  const directory = mkdtempSync(join(tmpdir(), 'bailiff-bench-guard-'));
  try {
    return [...[await uploadMemory(directory)], ...(await guessing()), ...(await pruning(directory)), throttleMemory()];
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
