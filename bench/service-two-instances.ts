import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresStorage } from '../src/service/store/open-storage.js';
import { FIXTURE_API_KEY, NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { startPostgresServer, stopPostgresServer } from '../test/support/postgres-server.js';
import type { BenchResult } from './result.js';
import { capCpu } from './support/cpu-cap.js';
import { loginBody } from './support/login-bodies.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';
import { copyNetworkFixture } from './support/postgres-network-fixture.js';
import { type Instance, startInstance, stopInstance } from './support/service-instance.js';

/** Login checks in flight at once, spread evenly over the instances. */
const CONCURRENCY = 16;
const WARM_UP_MS = 1_000;
const MEASURE_MS = 4_000;
/** One-instance and two-instance phases alternate, so the machine's other load weighs on both alike. */
const ROUNDS = 5;
/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const TICKS_PER_SECOND = 100;
/** High enough that the shared bucket never refuses: the bench measures the checks, not the limiter. */
const RATE_LIMIT_PER_MINUTE = 60_000_000;
/** Each instance's CPU in the capped comparison: small enough that two leave PostgreSQL and the clients room on 2 cores. */
const CAPPED_CORES = 0.2;

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

interface Comparison {
  one: number;
  two: number;
  ones: number[];
  twos: number[];
  /** CPU time of the services and PostgreSQL per answered check, ms. */
  cpuMsOne: number;
  cpuMsTwo: number;
}

/** Rounds of one instance, then two, alternating; medians of each. */
async function compare(running: Instance[], postgresPid: number, facts: Parameters<typeof loginBody>[2]) {
  const pids = running.map((instance) => instance.child.pid!);
  const ones: number[] = [];
  const twos: number[] = [];
  const cpuPerCheck = { one: 0, two: 0 };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [phase, instances, results] of [
      ['one', running.slice(0, 1), ones],
      ['two', running, twos],
    ] as const) {
      const cpuBefore = cpuSeconds(pids, postgresPid);
      const perSecond = await throughput(instances, facts);
      cpuPerCheck[phase] += (cpuSeconds(pids, postgresPid) - cpuBefore) / ROUNDS;
      results.push(perSecond);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  // CPU time per answered check (services and PostgreSQL together): what two instances would cost on cores of their own.
  const cpuMs = (phase: 'one' | 'two', rates: number[]) =>
    (cpuPerCheck[phase] * 1000) /
    ((rates.reduce((sum, rate) => sum + rate, 0) / ROUNDS) * ((WARM_UP_MS + MEASURE_MS) / 1000));
  return {
    one: median(ones),
    two: median(twos),
    ones,
    twos,
    cpuMsOne: cpuMs('one', ones),
    cpuMsTwo: cpuMs('two', twos),
  } satisfies Comparison;
}

/**
 * Issue 22: login-check throughput of one `bailiff service` instance against two instances on the
 * same PostgreSQL (1,000,000 punishments stored, 100,000 active), each in its own process, with
 * the clients spread over both. Target: two instances answer at least 1.7 times as many. Measured
 * twice: sharing this machine's cores as they are, and with each instance held to a share of a core
 * (a cgroup quota) so that the instances, not the machine, are what runs out.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-two-instances-'));
  const server = await startPostgresServer();
  const running: Instance[] = [];
  try {
    const fixture = await networkFixtureCopy(NETWORK_AT_SCALE, dir, Date.now());
    const admin = new pg.Client({ connectionString: server.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bailiff_bench');
    await admin.end();
    const url = server.adminUrl.replace(/\/postgres$/, '/bailiff_bench');
    const storage = await openPostgresStorage(url);
    try {
      await copyNetworkFixture(fixture.path, storage.pool!);
    } finally {
      await storage.close();
    }
    rmSync(fixture.path, { force: true });

    running.push(await startInstance(url, RATE_LIMIT_PER_MINUTE), await startInstance(url, RATE_LIMIT_PER_MINUTE));
    const uncapped = await compare(running, server.pid, fixture.facts);
    const caps = running.map((instance, index) =>
      capCpu(instance.child.pid!, CAPPED_CORES, `bailiff-bench-instance-${index}`),
    );
    let capped: Comparison | string;
    try {
      const refused = caps.find((cap) => 'unavailable' in cap);
      capped =
        refused && 'unavailable' in refused ? refused.unavailable : await compare(running, server.pid, fixture.facts);
    } finally {
      for (const cap of caps) if ('release' in cap) cap.release();
    }
    const machine = `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores, shared with PostgreSQL and the clients`;
    const shape = `${NETWORK_AT_SCALE.stored.toLocaleString('en')} stored, ${NETWORK_AT_SCALE.active.toLocaleString('en')} active`;
    const how = `${CONCURRENCY} calls in flight over keep-alive HTTP; median of ${ROUNDS} rounds of ${MEASURE_MS / 1000} s (after ${WARM_UP_MS / 1000} s of warm-up), alternating with the other phase`;
    const list = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
    const cappedRows: BenchResult[] =
      typeof capped === 'string'
        ? [
            {
              name: 'two instances against one, each held to a share of a core',
              unit: 'x',
              notes: `not measured: ${capped}`,
            },
          ]
        : [
            {
              name: `login checks a second, one instance held to ${CAPPED_CORES} of a core`,
              unit: 'req/s',
              value: capped.one,
              notes: `cgroup CPU quota on the instance's process; ${how}; rounds ${list(capped.ones)}`,
            },
            {
              name: `login checks a second, two instances each held to ${CAPPED_CORES} of a core`,
              unit: 'req/s',
              value: capped.two,
              notes: `rounds ${list(capped.twos)}`,
            },
            {
              name: 'two instances against one, each held to a share of a core',
              unit: 'x',
              value: capped.two / capped.one,
              target: '>= 1.7',
              notes: `${capped.two.toFixed(0)} / ${capped.one.toFixed(0)} req/s: each instance gets the CPU of a small machine of its own (${CAPPED_CORES} core) while PostgreSQL and the clients keep the rest, so the ratio shows what sharing one PostgreSQL costs, not what 2 cores hold; ${machine}`,
            },
          ];
    return [
      {
        name: 'login checks a second, one instance (PostgreSQL)',
        unit: 'req/s',
        value: uncapped.one,
        notes: `${shape}; ${how}; rounds ${list(uncapped.ones)}; ${machine}`,
      },
      {
        name: 'login checks a second, two instances on one PostgreSQL',
        unit: 'req/s',
        value: uncapped.two,
        notes: `the same clients spread evenly over both; rounds ${list(uncapped.twos)}; ${machine}`,
      },
      {
        name: 'two instances against one, sharing the 2 cores (login-check throughput)',
        unit: 'x',
        value: uncapped.two / uncapped.one,
        notes: `${uncapped.two.toFixed(0)} / ${uncapped.one.toFixed(0)} req/s; the instances compete with each other, PostgreSQL and the clients for the same 2 cores: bound by the machine, not by what the instances share`,
      },
      {
        name: 'CPU per login check (services + PostgreSQL), one instance',
        unit: 'ms',
        value: uncapped.cpuMsOne,
        notes:
          'CPU seconds of the service processes and the PostgreSQL server over the phase, per check answered (warm-up included)',
      },
      {
        name: 'CPU per login check (services + PostgreSQL), two instances',
        unit: 'ms',
        value: uncapped.cpuMsTwo,
        notes:
          'the same with the clients spread over two instances: equal costs mean two instances on cores of their own answer twice as many',
      },
      ...cappedRows,
    ];
  } finally {
    for (const instance of running) await stopInstance(instance);
    await stopPostgresServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
