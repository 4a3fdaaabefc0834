import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModerationApi } from '../src/api/moderation-api.js';
import { openDb } from '../src/db/open-db.js';
import { startWalCheckpointer } from '../src/db/wal-checkpointer.js';
import { createOutbox } from '../src/outbox/index.js';
import { type BenchResult, summarize } from './result.js';

const WARMUP = 2000;
const SAMPLES = 20_000;
const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

/**
 * Microseconds per transaction that writes a local row and enqueues its acknowledgement, as the
 * plugin does when it enforces a ban; zod validation and the commit are included.
 */
async function measure(
  path: string,
  options: { localWrite: boolean; backgroundCheckpoints: boolean },
): Promise<number[]> {
  const db = openDb(path);
  const checkpointer = options.backgroundCheckpoints ? startWalCheckpointer(db) : undefined;
  try {
    // Never started: this measures the write path only.
    const outbox = createOutbox({ db, client: {} as ModerationApi });
    db.exec('CREATE TABLE local_bans (id TEXT PRIMARY KEY, enforced_at INTEGER NOT NULL)');
    const recordBan = db.prepare('INSERT INTO local_bans (id, enforced_at) VALUES (?, ?)');
    const enforce = db.transaction((index: number) => {
      const punishmentId = `ban-${index}`;
      if (options.localWrite) recordBan.run(punishmentId, Date.now());
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
    return samples;
  } finally {
    await checkpointer?.stop();
    db.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-outbox-'));
  try {
    const notes = `${SAMPLES} transactions on a WAL file (synchronous=NORMAL, as openDb sets)`;
    const withLocal = await measure(join(dir, 'a.db'), { localWrite: true, backgroundCheckpoints: true });
    const alone = await measure(join(dir, 'b.db'), { localWrite: false, backgroundCheckpoints: true });
    const inline = await measure(join(dir, 'c.db'), { localWrite: true, backgroundCheckpoints: false });
    const slow = (samples: number[]) => samples.filter((us) => us > 1000).length;
    return [
      {
        name: 'enqueue in a transaction with a local write',
        unit: 'us',
        ...summarize(withLocal),
        target: 'p99 <= 100 us',
        notes: `${notes}; WAL checkpoints in a worker thread, as the plugin runs; ${slow(withLocal)} samples > 1 ms`,
      },
      {
        name: 'enqueue alone in a transaction',
        unit: 'us',
        ...summarize(alone),
        target: 'p99 <= 100 us',
        notes: `${notes}; WAL checkpoints in a worker thread`,
      },
      {
        name: 'enqueue with a local write, SQLite checkpointing on commit',
        unit: 'us',
        ...summarize(inline),
        notes: `${notes}; for comparison: ${slow(inline)} samples > 1 ms, the commits that ran the automatic checkpoint`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
