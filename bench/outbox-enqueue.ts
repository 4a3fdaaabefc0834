import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModerationApi } from '../src/api/moderation-api.js';
import { openDb } from '../src/db/open-db.js';
import { createOutbox } from '../src/outbox/index.js';
import { type BenchResult, summarize } from './result.js';

const WARMUP = 2000;
const SAMPLES = 20_000;
const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

/** Enqueue latency inside the caller's transaction (with a local write, as the plugin does), commit included. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-outbox-'));
  const db = openDb(join(dir, 'bailiff.db'));
  try {
    // Never started: this measures the write path only.
    const outbox = createOutbox({ db, client: {} as ModerationApi });
    db.exec('CREATE TABLE local_bans (id TEXT PRIMARY KEY, enforced_at INTEGER NOT NULL)');
    const recordBan = db.prepare('INSERT INTO local_bans (id, enforced_at) VALUES (?, ?)');
    const enforce = db.transaction((index: number) => {
      const punishmentId = `ban-${index}`;
      recordBan.run(punishmentId, Date.now());
      outbox.enqueue(
        { operation: 'acknowledgePunishment', payload: { punishmentId, playerUuid: PLAYER, success: true } },
        { idempotencyKey: `ack:${punishmentId}`, orderingKey: punishmentId },
      );
    });
    const samples: number[] = [];
    for (let index = 0; index < WARMUP + SAMPLES; index += 1) {
      const started = process.hrtime.bigint();
      enforce(index);
      const elapsedUs = Number(process.hrtime.bigint() - started) / 1000;
      if (index >= WARMUP) samples.push(elapsedUs);
    }
    const onlyEnqueue: number[] = [];
    const bare = db.transaction((index: number) =>
      outbox.enqueue(
        { operation: 'registerPlayer', payload: { uuid: PLAYER, name: 'Steve' } },
        { idempotencyKey: `login:${index}` },
      ),
    );
    for (let index = 0; index < SAMPLES; index += 1) {
      const started = process.hrtime.bigint();
      bare(index);
      onlyEnqueue.push(Number(process.hrtime.bigint() - started) / 1000);
    }
    return [
      {
        name: 'enqueue in a transaction with a local write',
        unit: 'us',
        ...summarize(samples),
        target: 'p99 <= 100 us',
        notes: `${SAMPLES} transactions on a WAL file (synchronous=NORMAL), zod validation and commit included`,
      },
      { name: 'enqueue alone in a transaction', unit: 'us', ...summarize(onlyEnqueue), target: 'p99 <= 100 us' },
    ];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
