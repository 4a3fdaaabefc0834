import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { NetworkShape } from '../test/service/helpers/network-fixture.js';
import { type BenchResult, summarize } from './result.js';
import { loginBody } from './support/login-bodies.js';
import { postLogin } from './support/login-post.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';

const SHAPE: NetworkShape = { players: 20_000, stored: 100_000, active: 10_000, tickets: 100 };
const WARM_UP = 3000;
const ROUNDS = 8;
const PER_ROUND = 500;
const SCRAPES = 50;
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');

/** The built `bailiff service` on `dbPath` in its own process; resolves with its URL. */
async function startCli(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const limits = ['--rate-limit-per-minute', '1000000000', '--write-rate-limit-per-minute', '1000000000'];
  const child = spawn(process.execPath, [CLI, 'service', '--port', '0', ...limits, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BAILIFF_METRICS_TOKEN: '' },
  });
  let stdout = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  for (let waitedMs = 0; !/listening on (\S+)\n/.test(stdout); waitedMs += 50) {
    if (waitedMs > 60_000 || child.exitCode !== null) throw new Error(`service did not start: ${stdout}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, url: /listening on (\S+)\n/.exec(stdout)![1]! };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * What the metrics cost: login checks to two service processes on copies of one network (100,000
 * punishments stored, 10,000 active), one with metrics off and one with them on (a bearer token),
 * in alternating rounds so both see the same load; then how long a scrape of /metrics takes.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-metrics-'));
  const children: ChildProcess[] = [];
  try {
    const fixture = await networkFixtureCopy(SHAPE, dir, Date.now());
    const onPath = join(dir, 'metrics-on.db');
    copyFileSync(fixture.path, onPath);
    const off = await startCli(['--db', fixture.path]);
    children.push(off.child);
    const on = await startCli(['--db', onPath, '--metrics-token', METRICS_TOKEN]);
    children.push(on.child);
    const agents = {
      off: new Agent({ keepAlive: true, maxSockets: 1 }),
      on: new Agent({ keepAlive: true, maxSockets: 1 }),
    };
    const durations = { off: [] as number[], on: [] as number[] };
    let n = 0;
    const check = async (which: 'off' | 'on', record: boolean) => {
      const url = `${which === 'off' ? off.url : on.url}/v1/minecraft/player/login`;
      const began = performance.now();
      const { status } = await postLogin(agents[which], url, loginBody(n, SHAPE, fixture.facts));
      if (status !== 200) throw new Error(`login check answered ${status}`);
      if (record) durations[which].push(performance.now() - began);
      n += 1;
    };
    for (let warm = 0; warm < WARM_UP; warm += 1) {
      await check('off', false);
      await check('on', false);
    }
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const which of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        for (let call = 0; call < PER_ROUND; call += 1) await check(which, true);
      }
    }
    const scrapes: number[] = [];
    let bytes = 0;
    for (let scrape = 0; scrape < SCRAPES; scrape += 1) {
      const began = performance.now();
      const answer = await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      bytes = (await answer.text()).length;
      scrapes.push(performance.now() - began);
    }
    agents.off.destroy();
    agents.on.destroy();
    const machine = `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
    const calls = `${ROUNDS} rounds of ${PER_ROUND} sequential calls each, alternating with the other process, after ${WARM_UP} of warm-up; ${SHAPE.stored.toLocaleString('en')} stored, ${SHAPE.active.toLocaleString('en')} active; ${machine}`;
    return [
      { name: 'login check, metrics off', unit: 'ms', ...summarize(durations.off), notes: calls },
      { name: 'login check, metrics on (token)', unit: 'ms', ...summarize(durations.on), notes: calls },
      {
        name: 'GET /metrics after those calls',
        unit: 'ms',
        ...summarize(scrapes),
        notes: `${SCRAPES} scrapes of ${bytes.toLocaleString('en')} characters; ${machine}`,
      },
    ];
  } finally {
    for (const child of children) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
}
