import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEFAULT_FAULT_SEED, runContractFaults } from '../test/e2e/helpers/contract-faults-scenario.js';
import { faultCounts } from '../test/support/proxy-log.js';
import {
  requestsCrossingWindows,
  requestsInsideWindows,
  violationsByCaller,
} from '../test/support/rate-limit-windows.js';
import type { BenchResult } from './result.js';

const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([name, count]) => `${name} ${count}`)
    .join(', ');

/**
 * The contract-only fault profile of test/e2e/contract-faults.e2e.test.ts, measured: the
 * reference service behind the fault proxy (a 429 in each of the three channels, 500, 503,
 * drops before and after the service handled the request; `Idempotency-Key` stripped), a real
 * game server with Bailiff, real bots, 16 punishments from the panel and from staff commands.
 * BAILIFF_FAULT_SEED=<seed> replays another plan.
 */
export async function run(): Promise<BenchResult[]> {
  const seed = Number(process.env.BAILIFF_FAULT_SEED ?? DEFAULT_FAULT_SEED);
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-contract-faults-'));
  try {
    const started = performance.now();
    const outcome = await runContractFaults({ dir, seed, idempotencyKey: 'strip' });
    const seconds = (performance.now() - started) / 1000;
    const inside = requestsInsideWindows(outcome.log);
    const faults = faultCounts(outcome.log);
    const limited = Object.entries(faults).filter(([name]) => name.startsWith('429'));
    const duplicated = Object.entries(outcome.creationsPerCommand).filter(([, rows]) => rows > 1);
    const plan = `seed ${seed}`;
    return [
      {
        name: 'contract faults: requests sent inside 429 windows',
        unit: 'requests',
        value: inside.length,
        target: '0',
        notes: `${plan}; ${describeCounts(violationsByCaller(inside)) || 'none'}`,
      },
      {
        name: 'contract faults: duplicate creations',
        unit: 'punishments',
        value: duplicated.reduce((sum, [, rows]) => sum + rows - 1, 0),
        target: '0',
        notes: `${Object.keys(outcome.creationsPerCommand).length} staff commands; ${duplicated.map(([label, rows]) => `${label} created ${rows}x`).join(', ') || 'none'}`,
      },
      {
        name: 'contract faults: requests in all',
        unit: 'requests',
        value: outcome.log.requests.length,
        notes: describeCounts(faults),
      },
      {
        name: 'contract faults: 429s injected',
        unit: 'requests',
        value: limited.reduce((sum, [, count]) => sum + count, 0),
        notes: `${describeCounts(Object.fromEntries(limited))}; waits of 1-3 s`,
      },
      {
        name: 'contract faults: requests in flight when a 429 was sent (not counted inside)',
        unit: 'requests',
        value: requestsCrossingWindows(outcome.log).length,
      },
      {
        name: 'contract faults: dead letters after a clean stop',
        unit: 'rows',
        value: outcome.outbox.counts.dead,
        target: '0',
        notes: `pending ${outcome.outbox.counts.pending}; enforcements unacknowledged: ${outcome.unacknowledged.length}`,
      },
      { name: 'contract faults: scenario wall time', unit: 's', value: seconds },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
