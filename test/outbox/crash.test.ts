import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import type { RunningService } from '../../src/service/index.js';
import { API_KEY, adminPunishment, seedWithBans, startService } from './helpers/service-fixture.js';

const WORKER = join(process.cwd(), 'dist/test/outbox/fixtures/crash-worker.js');
const COUNT = 60;
const KILLS = 4;
// 10 calls a second: a run killed within 0.6 s sends at most 10 of the 60, so the last run always has work left.
const REQUESTS_PER_MINUTE = 600;

let service: RunningService;
let dir: string;
const children = new Set<ChildProcess>();

/** Small seeded generator so a failing run can be replayed. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Run {
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when a stdout line starts with `prefix`; rejects after `timeoutMs` or when the child exits first. */
  waitFor(prefix: string, timeoutMs: number): Promise<string>;
}

function startWorker(dbPath: string): Run {
  const child = spawn(
    process.execPath,
    [
      WORKER,
      '--db',
      dbPath,
      '--url',
      service.url,
      '--key',
      API_KEY,
      '--count',
      String(COUNT),
      '--rpm',
      String(REQUESTS_PER_MINUTE),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  const lines: string[] = [];
  const waiters: Array<{ prefix: string; resolve: (line: string) => void }> = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const waiter of waiters.filter((entry) => line.startsWith(entry.prefix))) waiter.resolve(line);
    }
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return {
    child,
    lines,
    exited,
    waitFor: (prefix, timeoutMs) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no '${prefix}' within ${timeoutMs} ms; stderr: ${stderr}`)),
          timeoutMs,
        );
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          reject(new Error(`worker exited (${code ?? signal}) before '${prefix}'; stderr: ${stderr}`));
        });
        waiters.push({
          prefix,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      }),
  };
}

function outboxCounts(dbPath: string): Record<string, number> {
  const db = openDb(dbPath, { readonly: true });
  try {
    const rows = db.prepare('SELECT status, count(*) AS n FROM outbox GROUP BY status').all() as Array<{
      status: string;
      n: number;
    }>;
    return Object.fromEntries(rows.map((row) => [row.status, row.n]));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run \`npm run build\` first`);
  service = await startService({ port: 0, seed: seedWithBans(COUNT) });
  dir = mkdtempSync(join(tmpdir(), 'bailiff-outbox-crash-'));
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await service?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('outbox crash safety', () => {
  it('delivers every enqueued call at least once across SIGKILLs at random points', { timeout: 60_000 }, async () => {
    const dbPath = join(dir, 'bailiff.db');
    const random = seededRandom(Number(process.env.BAILIFF_CRASH_SEED ?? 20_261_122));
    const afterKills: Array<Record<string, number>> = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      const run = startWorker(dbPath);
      await run.waitFor('ready', 15_000);
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 600)));
      run.child.kill('SIGKILL');
      const ended = await run.exited;
      expect(ended, run.lines.join('\n')).toMatchObject({ signal: 'SIGKILL' });
      afterKills.push(existsSync(dbPath) ? outboxCounts(dbPath) : {});
    }
    // at least one kill landed while work was left (rows not yet enqueued, pending or in flight)
    expect(afterKills.some((counts) => (counts.sent ?? 0) < COUNT)).toBe(true);

    const last = startWorker(dbPath);
    const line = await last.waitFor('drained', 30_000);
    expect((await last.exited).code).toBe(0);
    expect(line).toContain('"pending":0');

    expect(outboxCounts(dbPath)).toEqual({ sent: COUNT });
    const missing: string[] = [];
    for (let index = 0; index < COUNT; index += 1) {
      const seen = await adminPunishment(service, `ban-${index}`);
      if (seen.acknowledgements.length === 0 || !seen.punishment.started) missing.push(`ban-${index}`);
    }
    expect(missing).toEqual([]);
  });
});
