import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { EnforcementContext } from '../plugin/enforcement/enforcement-context.js';
import { applyPageInOneTransaction } from '../plugin/sync/apply-page.js';
import { applyPunishment } from '../plugin/sync/apply-punishment.js';
import type { Punishment } from '../src/contract/schemas.js';
import { openDb, WAL_SIZE_LIMIT_BYTES } from '../src/db/open-db.js';
import { startWalCheckpointer } from '../src/db/wal-checkpointer.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';
import { benchEnforcementContext } from './support/enforcement-context.js';

const BANS = 100_000;
/** The service's stream page (`STREAM_PAGE_SIZE`). */
const PAGE = 1000;
const MB = 1024 * 1024;

function enforcementOn(path: string): EnforcementContext {
  return benchEnforcementContext(openDb(path), {}, { appealUrl: '', loadCache: false }).context;
}

function page(from: number): Punishment[] {
  return Array.from({ length: PAGE }, (_, at) => ({
    id: `ban-${from + at}`,
    targetUuid: randomUUID(),
    targetName: `player${from + at}`,
    typeOrdinal: 2,
    reason: 'soak',
    issuerName: 'bench',
    duration: -1,
    createdAt: new Date(Date.UTC(2026, 0, 1) + from + at).toISOString(),
    status: 'active',
    started: null,
  })) as Punishment[];
}

const walBytes = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);

/**
 * A first stream snapshot of 100,000 bans into a new plugin database, page by page as the stream
 * client applies it (one transaction per punishment as before, or one per page as now), with the background WAL
 * checkpointer running at its production interval between pages.
 */
async function fill(dir: string, onePerPage: boolean) {
  const path = join(dir, `bailiff-${onePerPage ? 'page' : 'row'}.db`);
  const context = enforcementOn(path);
  const checkpointer = startWalCheckpointer(context.db);
  const pages: number[] = [];
  let peakWal = 0;
  try {
    for (let from = 0; from < BANS; from += PAGE) {
      const punishments = page(from);
      const start = performance.now();
      const applyAll = () => {
        for (const punishment of punishments) applyPunishment(context, punishment);
      };
      if (onePerPage) applyPageInOneTransaction(context, applyAll);
      else applyAll();
      pages.push(performance.now() - start);
      peakWal = Math.max(peakWal, walBytes(path));
      // The stream's next page comes in a later turn of the loop; checkpoints run meanwhile.
      await nextTurn();
    }
    const walAfterFill = walBytes(path);
    const start = performance.now();
    await checkpointer.checkpointNow();
    const checkpointMs = performance.now() - start;
    // The next commit finds the WAL copied and cuts the file back (journal_size_limit).
    applyPunishment(context, page(BANS)[0]!);
    const walAfterCheckpoint = walBytes(path);
    // The same checkpoint when it finds nothing to copy (the state after an idle second).
    const idleStart = performance.now();
    await checkpointer.checkpointNow();
    const idleCheckpointMs = performance.now() - idleStart;
    return {
      pages,
      peakWal,
      walAfterFill,
      walAfterCheckpoint,
      checkpointMs,
      idleCheckpointMs,
      dbBytes: statSync(path).size,
    };
  } finally {
    await checkpointer.stop();
    context.db.close();
  }
}

/** The plugin database's WAL over a first fill of 100,000 bans, and what a checkpoint costs at that size. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-wal-'));
  try {
    const results: BenchResult[] = [];
    for (const onePerPage of [false, true]) {
      const figures = await fill(dir, onePerPage);
      const how = onePerPage ? 'one transaction per page' : 'one transaction per punishment';
      results.push(
        {
          name: `stream snapshot page of ${PAGE} bans applied on the event loop (${how})`,
          unit: 'ms',
          ...summarize(figures.pages),
          notes: `${BANS.toLocaleString('en-US')} bans into a new database; WAL peak ${(figures.peakWal / MB).toFixed(1)} MB, ${(figures.walAfterFill / MB).toFixed(1)} MB at the end of the fill`,
        },
        {
          name: `WAL checkpoint after the fill of ${BANS.toLocaleString('en-US')} bans, in the worker (${how})`,
          unit: 'ms',
          value: Math.round(figures.checkpointMs * 10) / 10,
          notes: `then ${figures.idleCheckpointMs.toFixed(1)} ms with nothing to copy; database ${(figures.dbBytes / MB).toFixed(1)} MB`,
        },
        {
          name: `WAL file after that checkpoint and one commit (${how})`,
          unit: 'MB',
          value: Math.round((figures.walAfterCheckpoint / MB) * 100) / 100,
          target: `<= ${WAL_SIZE_LIMIT_BYTES / MB} MB`,
        },
      );
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
