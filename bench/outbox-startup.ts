import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ExtensionSupport } from '../src/api/extension-support.js';
import type { ModerationApi } from '../src/api/moderation-api.js';
import { RateLimitGate } from '../src/api/rate-limit-gate.js';
import { openDb } from '../src/db/open-db.js';
import { createOutbox } from '../src/outbox/index.js';
import { type BenchResult, summarize } from './result.js';

const PENDING = 100_000;
const TRIALS = 5;
const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

/** A database left by a crashed server: 100,000 pending rows, a few in flight with expired leases. */
function buildTemplate(path: string): void {
  const db = openDb(path);
  const outbox = createOutbox({ db, client: {} as ModerationApi });
  db.transaction(() => {
    for (let index = 0; index < PENDING; index += 1) {
      const punishmentId = `ban-${index}`;
      outbox.enqueue(
        { operation: 'acknowledgePunishment', payload: { punishmentId, playerUuid: PLAYER, success: true } },
        { idempotencyKey: `ack:${punishmentId}`, orderingKey: `player-${index % 5000}` },
      );
    }
  })();
  db.prepare("UPDATE outbox SET status = 'in_flight', claim_token = 'crashed', expires_at = 0 WHERE id <= 4").run();
  db.close();
}

/** Time from opening the file to the first call handed to the client, with 100,000 rows pending. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-outbox-start-'));
  try {
    const template = join(dir, 'template.db');
    buildTemplate(template);
    const samples: number[] = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const path = join(dir, `trial-${trial}.db`);
      copyFileSync(template, path);
      let resolveFirstCall!: (at: number) => void;
      const firstCall = new Promise<number>((resolve) => {
        resolveFirstCall = resolve;
      });
      const client = {
        gate: new RateLimitGate(),
        extensions: new ExtensionSupport({ reprobeAfterMs: 600_000 }),
        acknowledgePunishment: async () => {
          resolveFirstCall(performance.now());
          return { message: 'ok' };
        },
      } as unknown as ModerationApi;
      const started = performance.now();
      const db = openDb(path);
      const outbox = createOutbox({ db, client, settings: { concurrency: 1 } });
      outbox.start();
      samples.push((await firstCall) - started);
      await outbox.stop();
      db.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { p50, p99 } = summarize(samples);
    return [
      {
        name: 'start-up to first call with 100,000 pending rows',
        unit: 'ms',
        p50,
        p99,
        value: Math.max(...samples),
        target: '<= 1000 ms',
        notes: `${TRIALS} trials; open, migrate check, reclaim of 4 expired leases, first claim; value = worst`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
