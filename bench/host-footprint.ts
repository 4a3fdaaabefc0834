/**
 * Each host idle, without Bailiff (the fixture runner with the runtime and no plugin) and with
 * Bailiff (`bailiff start` against the reference service): resident memory, CPU over a quiet
 * window, and the time a real client takes from connecting to spawning. Every server runs in its
 * own child process, measured from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeTestServerFolder } from '../test/e2e/helpers/game-server.js';
import { API_KEY, startTestService } from '../test/e2e/helpers/service.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';
import { BENCH_HOSTS, type BenchHost } from './support/hosts.js';

const root = resolve(import.meta.dirname, '../..');
const RUNNER = join(root, 'dist/test/hosts/fixtures/run-server.js');
const MAIN = join(root, 'dist/src/cli/main.js');
const SETTLE_MS = 3000;
const CPU_WINDOW_MS = 5000;
const JOINS = 8;
/** Kernel clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const round1 = (value: number) => Math.round(value * 10) / 10;

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

/** User + system CPU time of a process so far, in seconds. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((ready, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /game server listening on [\d.]+:(\d+)$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        ready(Number(match[1]));
      }
    });
    child.once('exit', () => fail(new Error(`server exited:\n${output}`)));
  });
}

interface Footprint {
  rss: number;
  cpuPercent: number;
  joinMs: number[];
}

async function measure(host: BenchHost, args: string[], env: Record<string, string>, prefix: string) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  try {
    const port = await waitForPort(child);
    await sleep(SETTLE_MS);
    const rss = rssMb(child.pid!);
    const cpuBefore = cpuSeconds(child.pid!);
    await sleep(CPU_WINDOW_MS);
    const cpuPercent = ((cpuSeconds(child.pid!) - cpuBefore) / (CPU_WINDOW_MS / 1000)) * 100;
    // A first join warms the server up (code paths compiled, spawn area generated); not counted.
    await (await host.join(port, `${prefix}Warm`)).quit();
    const joinMs: number[] = [];
    for (let at = 0; at < JOINS; at += 1) {
      const start = performance.now();
      const client = await host.join(port, `${prefix}${at}`);
      joinMs.push(performance.now() - start);
      await client.quit();
    }
    return { rss, cpuPercent, joinMs } satisfies Footprint;
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(killer);
  }
}

function rows(host: BenchHost, label: string, footprint: Footprint): BenchResult[] {
  const notes = `${host.client}; idle after ${SETTLE_MS} ms`;
  return [
    { name: `${host.name} ${label}: RSS idle`, unit: 'MB', value: round1(footprint.rss), notes },
    {
      name: `${host.name} ${label}: CPU idle`,
      unit: '% of a core',
      value: round1(footprint.cpuPercent),
      notes: `user + system over ${CPU_WINDOW_MS / 1000} s`,
    },
    {
      name: `${host.name} ${label}: client connect -> spawned`,
      unit: 'ms',
      ...summarize(footprint.joinMs),
      notes: `${JOINS} joins one at a time, after a warm-up join`,
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-hosts-'));
  const service = await startTestService({ dbPath: join(dir, 'service.db'), players: [] });
  const results: BenchResult[] = [];
  try {
    for (const host of BENCH_HOSTS) {
      const bare = join(dir, `${host.name}-bare`);
      mkdirSync(bare, { recursive: true });
      const alone = await measure(host, [RUNNER, bare], { BAILIFF_TEST_EDITION: host.edition }, 'Bare');
      results.push(...rows(host, 'without Bailiff', alone));

      const withBailiff = join(dir, `${host.name}-bailiff`);
      writeTestServerFolder(withBailiff, undefined, host.settings);
      const env = { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY };
      const bailiff = await measure(host, [MAIN, 'start', '--dir', withBailiff], env, 'Guard');
      results.push(...rows(host, 'with Bailiff', bailiff));
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
