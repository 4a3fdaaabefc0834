import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
const WARM_UP_MS = 2_000;
const MEASURE_MS = 10_000;
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

    running.push(await startInstance(url));
    const one = await throughput(running, fixture.facts);
    running.push(await startInstance(url));
    const two = await throughput(running, fixture.facts);
    const machine = `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores, shared with PostgreSQL and the clients`;
    const shape = `${NETWORK_AT_SCALE.stored.toLocaleString('en')} stored, ${NETWORK_AT_SCALE.active.toLocaleString('en')} active`;
    const how = `${CONCURRENCY} calls in flight over keep-alive HTTP, ${MEASURE_MS / 1000} s after ${WARM_UP_MS / 1000} s of warm-up`;
    return [
      {
        name: 'login checks a second, one instance (PostgreSQL)',
        unit: 'req/s',
        value: one,
        notes: `${shape}; ${how}; ${machine}`,
      },
      {
        name: 'login checks a second, two instances on one PostgreSQL',
        unit: 'req/s',
        value: two,
        notes: `the same clients spread evenly over both; ${machine}`,
      },
      {
        name: 'two instances against one (login-check throughput)',
        unit: 'x',
        value: two / one,
        target: '>= 1.7',
        notes: `${two.toFixed(0)} / ${one.toFixed(0)} req/s`,
      },
    ];
  } finally {
    for (const instance of running) await stopInstance(instance);
    await stopPostgresServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}
