/**
 * What 100,000 cached punishments cost a real game server: two `bailiff start` servers, alike
 * but for a filled cache in one, each in its own child process, measured from /proc once settled.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { LOOPBACK_TEST_SETTINGS } from '../src/hosts/server-settings.js';
import type { BenchResult } from './result.js';
import { fillCacheDatabase } from './support/cache-fixture.js';

const PUNISHMENTS = 100_000;
const TRIALS = 3;
const SETTLE_MS = 3000;
const START_TIMEOUT_MS = 60_000;
const MAIN = resolve(import.meta.dirname, '../src/cli/main.js');

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

function serverFolder(root: string, name: string, cachedPunishments: number): string {
  const dir = join(root, name);
  const dataFolder = join(dir, 'plugin-data', 'Bailiff');
  mkdirSync(dataFolder, { recursive: true });
  writeFileSync(join(dir, 'server.yml'), stringify(LOOPBACK_TEST_SETTINGS));
  // Polling only: the embedded service does not know these punishments, and a stream snapshot would lift them.
  writeFileSync(join(dataFolder, 'config.yml'), stringify({ sync: { stream: 'off' } }));
  if (cachedPunishments > 0) fillCacheDatabase(join(dataFolder, 'bailiff.db'), cachedPunishments);
  return dir;
}

function waitForListening(child: ChildProcess): Promise<void> {
  return new Promise((ready, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${output}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/^game server listening on /m.test(output)) {
        clearTimeout(timer);
        ready();
      }
    });
    child.once('exit', () => fail(new Error(`server exited:\n${output}`)));
  });
}

async function settledRssMb(dir: string): Promise<number> {
  const child = spawn(process.execPath, [MAIN, 'start', '--dir', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    await waitForListening(child);
    await sleep(SETTLE_MS);
    return rssMb(child.pid!);
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (value: number) => Math.round(value * 10) / 10;

export async function run(): Promise<BenchResult[]> {
  const root = mkdtempSync(join(tmpdir(), 'bailiff-bench-server-rss-'));
  try {
    const emptyDir = serverFolder(root, 'empty', 0);
    const filledDir = serverFolder(root, 'filled', PUNISHMENTS);
    const empty: number[] = [];
    const filled: number[] = [];
    // Alternated, so a drift of the machine affects both alike.
    for (let trial = 0; trial < TRIALS; trial += 1) {
      empty.push(await settledRssMb(emptyDir));
      filled.push(await settledRssMb(filledDir));
    }
    const notes = `bailiff start (embedded service, 1.21.4, in-memory superflat world), idle; median of ${TRIALS}`;
    return [
      { name: 'game server RSS, empty cache', unit: 'MB', value: round1(median(empty)), notes },
      { name: 'game server RSS, 100,000 cached punishments', unit: 'MB', value: round1(median(filled)), notes },
      {
        name: 'RSS cost of 100,000 cached punishments on a running server',
        unit: 'MB',
        value: round1(median(filled) - median(empty)),
        target: '<= 30 MB',
        notes: `difference of the medians; per trial: ${filled.map((mb, at) => round1(mb - empty[at]!)).join(', ')}`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
