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

/**
 * Microseconds per transaction that writes a local row and enqueues its acknowledgement, as the
 * plugin does when it enforces a ban; zod validation and the commit are included.
 */
function measure(path: string, options: { localWrite: boolean; autoCheckpoint: boolean }): number[] {
  const db = openDb(path);
  try {
    if (!options.autoCheckpoint) db.pragma('wal_autocheckpoint = 0');
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
    db.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-outbox-'));
  try {
    const notes = `${SAMPLES} transactions on a WAL file (synchronous=NORMAL, as openDb sets)`;
    const withLocal = measure(join(dir, 'a.db'), { localWrite: true, autoCheckpoint: true });
    const alone = measure(join(dir, 'b.db'), { localWrite: false, autoCheckpoint: true });
    const noCheckpoint = measure(join(dir, 'c.db'), { localWrite: true, autoCheckpoint: false });
    const slow = withLocal.filter((us) => us > 1000).length;
    return [
      {
        name: 'enqueue in a transaction with a local write',
        unit: 'us',
        ...summarize(withLocal),
        target: 'p99 <= 100 us',
        notes: `${notes}; ${slow} samples > 1 ms: the commits that ran an automatic WAL checkpoint`,
      },
      {
        name: 'enqueue alone in a transaction',
        unit: 'us',
        ...summarize(alone),
        target: 'p99 <= 100 us',
        notes,
      },
      {
        name: 'enqueue with a local write, checkpoints off the commit path',
        unit: 'us',
        ...summarize(noCheckpoint),
        target: 'p99 <= 100 us',
        notes: `${notes}; wal_autocheckpoint=0, i.e. what a background checkpoint would give`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
