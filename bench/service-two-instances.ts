import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPostgresStorage } from '../src/service/store/postgres/postgres-storage.js';
import { FIXTURE_API_KEY, NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { startPostgresServer, stopPostgresServer } from '../test/support/postgres-server.js';
import type { BenchResult } from './result.js';
import { loginBody } from './support/login-bodies.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';
import { copyNetworkFixture } from './support/postgres-network-fixture.js';

const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));
/** Login checks in flight at once, spread evenly over the instances. */
const CONCURRENCY = 16;
const WARM_UP_MS = 1_000;
const MEASURE_MS = 4_000;
/** One-instance and two-instance phases alternate, so the machine's other load weighs on both alike. */
const ROUNDS = 3;
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;
const START_TIMEOUT_MS = 60_000;
/** High enough that the shared bucket never refuses: the bench measures the checks, not the limiter. */
const RATE_LIMIT_PER_MINUTE = 60_000_000;

interface Instance {
  child: ChildProcess;
  url: URL;
}

/** `bailiff service --database-url` in its own process, as an operator runs it. */
function startInstance(databaseUrl: string): Promise<Instance> {
  const child = spawn(
    process.execPath,
    [CLI, 'service', '--port', '0', '--rate-limit-per-minute', String(RATE_LIMIT_PER_MINUTE)],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, BAILIFF_DATABASE_URL: databaseUrl } },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bailiff service did not start within ${START_TIMEOUT_MS} ms: ${output}`));
    }, START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (!listening) return;
      clearTimeout(timer);
      resolve({ child, url: new URL(listening[1]!) });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bailiff service exited with ${code} before it listened: ${output}`));
    });
  });
}

/** CPU seconds (user + system) the processes used so far: `pids` and, for the PostgreSQL server, its children. */
function cpuSeconds(pids: number[], parentPid: number): number {
  const ticksOf = (stat: string) => {
    // Fields after the command name (which may hold spaces): state is the 3rd field, utime the 14th, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  };
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const pid = Number(entry);
    const usage = ticksOf(stat);
    if (pids.includes(pid) || pid === parentPid || usage.ppid === parentPid) ticks += usage.ticks;
  }
  return ticks / TICKS_PER_SECOND;
}

async function stopInstance({ child }: Instance): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function loginCheck(agent: Agent, url: URL, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/v1/minecraft/player/login',
        headers: { 'x-api-key': FIXTURE_API_KEY, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      },
    );
    call.once('error', reject);
    call.end(body);
  });
}

/**
 * Login checks answered per second with `CONCURRENCY` calls in flight, spread over the instances:
 * each client sends its next call as soon as the last is answered. Calls answered during the
 * warm-up are not counted.
 */
async function throughput(instances: Instance[], facts: Parameters<typeof loginBody>[2]): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const started = performance.now();
  const measureFrom = started + WARM_UP_MS;
  const endAt = measureFrom + MEASURE_MS;
  let counted = 0;
  let next = 0;
  const client = async (index: number) => {
    const instance = instances[index % instances.length]!;
    while (performance.now() < endAt) {
      const n = next;
      next += 1;
      const status = await loginCheck(agent, instance.url, loginBody(n, NETWORK_AT_SCALE, facts));
      if (status !== 200) throw new Error(`login check answered ${status}`);
      if (performance.now() >= measureFrom) counted += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, index) => client(index)));
  } finally {
    agent.destroy();
  }
  return counted / (MEASURE_MS / 1000);
}

/**
 * Issue 22: login-check throughput of one `bailiff service` instance against two instances on the
 * same PostgreSQL (1,000,000 punishments stored, 100,000 active), each in its own process, with
 * the clients spread over both. Target: two instances answer at least 1.7 times as many.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-two-instances-'));
  const server = await startPostgresServer();
  const running: Instance[] = [];
  try {
    const fixture = networkFixtureCopy(NETWORK_AT_SCALE, dir, Date.now());
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bailiff_bench');
    await admin.end();
    const url = server.adminUrl.replace(/\/postgres$/, '/bailiff_bench');
    const storage = await openPostgresStorage(url);
    try {
      await copyNetworkFixture(fixture.path, storage.pool);
    } finally {
      await storage.close();
    }
    rmSync(fixture.path, { force: true });

    running.push(await startInstance(url), await startInstance(url));
    const pids = running.map((instance) => instance.child.pid!);
    const ones: number[] = [];
    const twos: number[] = [];
    const cpuPerCheck = { one: 0, two: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [phase, instances, results] of [
        ['one', running.slice(0, 1), ones],
        ['two', running, twos],
      ] as const) {
        const cpuBefore = cpuSeconds(pids, server.pid);
        const perSecond = await throughput(instances, fixture.facts);
        cpuPerCheck[phase] += (cpuSeconds(pids, server.pid) - cpuBefore) / ROUNDS;
        results.push(perSecond);
      }
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const one = median(ones);
    const two = median(twos);
    // CPU time per answered check (services and PostgreSQL together): what two instances would cost on cores of their own.
    const cpuMs = (phase: 'one' | 'two', rates: number[]) =>
      (cpuPerCheck[phase] * 1000) /
      ((rates.reduce((sum, rate) => sum + rate, 0) / ROUNDS) * ((WARM_UP_MS + MEASURE_MS) / 1000));
    const machine = `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores, shared with PostgreSQL and the clients`;
    const shape = `${NETWORK_AT_SCALE.stored.toLocaleString('en')} stored, ${NETWORK_AT_SCALE.active.toLocaleString('en')} active`;
    const how = `${CONCURRENCY} calls in flight over keep-alive HTTP; median of ${ROUNDS} rounds of ${MEASURE_MS / 1000} s (after ${WARM_UP_MS / 1000} s of warm-up), alternating with the other phase`;
    const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    return [
      {
        name: 'login checks a second, one instance (PostgreSQL)',
        unit: 'req/s',
        value: one,
        notes: `${shape}; ${how}; rounds ${list(ones)}; ${machine}`,
      },
      {
        name: 'login checks a second, two instances on one PostgreSQL',
        unit: 'req/s',
        value: two,
        notes: `the same clients spread evenly over both; rounds ${list(twos)}; ${machine}`,
      },
      {
        name: 'two instances against one (login-check throughput)',
        unit: 'x',
        value: two / one,
        target: '>= 1.7',
        notes: `${two.toFixed(0)} / ${one.toFixed(0)} req/s; on 2 shared cores the instances compete with each other, PostgreSQL, the clients and other work`,
      },
      {
        name: 'CPU per login check (services + PostgreSQL), one instance',
        unit: 'ms',
        value: cpuMs('one', ones),
        notes:
          'CPU seconds of the service processes and the PostgreSQL server over the phase, per check answered (warm-up included)',
      },
      {
        name: 'CPU per login check (services + PostgreSQL), two instances',
        unit: 'ms',
        value: cpuMs('two', twos),
        notes:
          'the same with the clients spread over two instances: equal costs mean two instances on cores of their own answer twice as many',
      },
    ];
  } finally {
    for (const instance of running) await stopInstance(instance);
    await stopPostgresServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
