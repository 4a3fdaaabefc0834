import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchResult, summarize } from './result.js';
import { startLoginProbe } from './support/login-probe.js';
import {
  addBans,
  type ServiceProcess,
  serverKey,
  startServiceProcess,
  writeStreamFixture,
} from './support/stream-fixture.js';
import { connectSimServer, type SimServer, type StreamPositionSeen } from './support/stream-sim-server.js';

const ACTIVE_BANS = Number(process.env.BAILIFF_BENCH_STREAM_BANS ?? 100_000);
const STORM_SERVERS = Number(process.env.BAILIFF_BENCH_STREAM_SERVERS ?? 200);
const FANOUT_SERVERS = Number(process.env.BAILIFF_BENCH_FANOUT_SERVERS ?? 1000);
const CHANGES_WHILE_DOWN = 100;
const FANOUT_BANS = 20;
const QUIET_PROBE_MS = 5000;
const STORM_TIMEOUT_MS = 180_000;
const SERVICE_OPTIONS = {
  pingIntervalMs: 60_000,
  rateLimitPerMinute: 100_000,
  adminToken: 'bench-admin-token-0123456789',
};

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface StormResult {
  allCaughtUpMs: number;
  baselineRssMb: number;
  peakRssMb: number;
  login: { p50: number; p99: number; count: number; failures: number };
  servers: SimServer[];
}

/** `count` servers connect at once (from `positions` when given); measured until every one is caught up. */
async function storm(service: ServiceProcess, count: number, positions?: StreamPositionSeen[]): Promise<StormResult> {
  const baselineRssMb = service.rssMb();
  const probe = startLoginProbe(service.url, serverKey(count), ACTIVE_BANS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  const servers = Array.from({ length: count }, (_, index) =>
    connectSimServer(service.url, serverKey(index), positions?.[index]),
  );
  const caughtUp = withTimeout(
    Promise.all(servers.map((server) => server.caughtUp)),
    STORM_TIMEOUT_MS,
    `${count} servers caught up`,
  );
  // The probe stops either way, so a failed storm leaves no loop behind.
  const settled = await caughtUp.then(
    (at) => ({ at }),
    (error: unknown) => ({ error }),
  );
  const probed = await probe.stop();
  if ('error' in settled) throw settled.error;
  const caughtUpAt = settled.at;
  const latencies = probed.latencies;
  return {
    allCaughtUpMs: Math.max(...caughtUpAt) - started,
    baselineRssMb,
    peakRssMb: service.peakRssMb(),
    login: { ...summarize(latencies), count: latencies.length, failures: probed.failures },
    servers,
  };
}

async function registerPlayers(service: ServiceProcess, count: number): Promise<string[]> {
  const uuids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const uuid = `20000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    const response = await fetch(`${service.url}/v1/minecraft/players/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': serverKey(0) },
      body: JSON.stringify({ uuid, name: `fanout${n}` }),
    });
    if (!response.ok) throw new Error(`register player: ${response.status}`);
    uuids.push(uuid);
  }
  return uuids;
}

/** Bans created one after another; per server, the time from the request to the pushed frame. */
async function fanOut(service: ServiceProcess, servers: SimServer[]): Promise<number[]> {
  const uuids = await registerPlayers(service, FANOUT_BANS);
  const latencies: number[] = [];
  for (const uuid of uuids) {
    let remaining = servers.length;
    let allArrived!: () => void;
    const arrived = new Promise<void>((resolve) => {
      allArrived = resolve;
    });
    const sentAt = performance.now();
    for (const server of servers) {
      server.onPushed((_id, atMs) => {
        latencies.push(atMs - sentAt);
        remaining -= 1;
        if (remaining === 0) allArrived();
      });
    }
    const response = await fetch(`${service.url}/v1/minecraft/punishments/dynamic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': serverKey(0) },
      body: JSON.stringify({ targetUuid: uuid, typeOrdinal: 2, issuerName: 'bench' }),
    });
    if (!response.ok) throw new Error(`create punishment: ${response.status}`);
    await withTimeout(arrived, 30_000, `ban pushed to ${servers.length} servers`);
  }
  return latencies;
}

/**
 * The stream at network size, the service in its own process (its RSS read from /proc): 200
 * servers connecting for the first time (each needs the snapshot of 100,000 active bans), the same
 * 200 resuming after a service restart with 100 changes made while it was down, and the fan-out of
 * 20 bans to 1,000 connected servers. Login checks are sent throughout the storms.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-stream-'));
  const dbPath = join(dir, 'service.db');
  const opened: SimServer[] = [];
  let service: ServiceProcess | undefined;
  try {
    const fixtureStarted = performance.now();
    writeStreamFixture(dbPath, Math.max(STORM_SERVERS, FANOUT_SERVERS) + 1, ACTIVE_BANS);
    const fixtureMs = performance.now() - fixtureStarted;

    service = await startServiceProcess(dbPath, SERVICE_OPTIONS);
    const quiet = startLoginProbe(service.url, serverKey(STORM_SERVERS), ACTIVE_BANS);
    await new Promise((resolve) => setTimeout(resolve, QUIET_PROBE_MS));
    const quietLogin = await quiet.stop();
    const first = await storm(service, STORM_SERVERS);
    opened.push(...first.servers);
    const snapshotMb = first.servers[0]!.snapshotBytes() / 1024 / 1024;
    const positions = first.servers.map((server) => server.position()!);
    const firstRenders = service.snapshotsRendered();
    for (const server of first.servers) server.close();
    await service.close();

    addBans(dbPath, CHANGES_WHILE_DOWN, 'while-down');
    service = await startServiceProcess(dbPath, SERVICE_OPTIONS);
    const resumed = await storm(service, STORM_SERVERS, positions);
    opened.push(...resumed.servers);
    const resumedCleanly = resumed.servers.every(
      (server) =>
        server.resumed() === true && server.pushedCount() === CHANGES_WHILE_DOWN && server.snapshotBytes() === 0,
    );
    const head = resumed.servers[0]!.position()!;
    for (const server of resumed.servers) server.close();

    const fanOutServers = Array.from({ length: FANOUT_SERVERS }, (_, index) =>
      connectSimServer(service!.url, serverKey(index), head),
    );
    opened.push(...fanOutServers);
    await withTimeout(Promise.all(fanOutServers.map((server) => server.caughtUp)), 60_000, 'fan-out servers connected');
    const fanOutLatencies = await fanOut(service, fanOutServers);

    const stormNotes = (result: StormResult) =>
      `RSS ${result.baselineRssMb.toFixed(0)} MB before; login checks: ${result.login.count} answered, ${result.login.failures} failed`;
    return [
      { name: `fixture: ${ACTIVE_BANS} active bans written`, unit: 'ms', value: fixtureMs },
      {
        name: 'login check with no stream traffic (for comparison)',
        unit: 'ms',
        ...summarize(quietLogin.latencies),
        notes: `${quietLogin.latencies.length} checks over ${QUIET_PROBE_MS / 1000} s, ${quietLogin.failures} failed`,
      },
      {
        name: `first-time storm: ${STORM_SERVERS} servers all have their snapshot`,
        unit: 'ms',
        value: first.allCaughtUpMs,
        target: '<= 60000',
        notes: `snapshot ${snapshotMb.toFixed(1)} MB per server, rendered ${firstRenders} time(s) by the service`,
      },
      {
        name: 'first-time storm: peak service RSS',
        unit: 'MB',
        value: first.peakRssMb,
        target: '<= 1024',
        notes: stormNotes(first),
      },
      {
        name: 'first-time storm: login check meanwhile',
        unit: 'ms',
        p50: first.login.p50,
        p99: first.login.p99,
        notes: `${first.login.count} checks`,
      },
      {
        name: `resume storm after a restart: ${STORM_SERVERS} servers all caught up (${CHANGES_WHILE_DOWN} changes missed)`,
        unit: 'ms',
        value: resumed.allCaughtUpMs,
        target: '<= 10000',
        notes: resumedCleanly ? 'every server resumed, no snapshot' : 'NOT every server resumed cleanly',
      },
      {
        name: 'resume storm: peak service RSS',
        unit: 'MB',
        value: resumed.peakRssMb,
        target: '<= 512',
        notes: stormNotes(resumed),
      },
      {
        name: 'resume storm: login check meanwhile',
        unit: 'ms',
        p50: resumed.login.p50,
        p99: resumed.login.p99,
        target: 'p99 <= 50',
        notes: `${resumed.login.count} checks`,
      },
      {
        name: `fan-out: ban created -> frame at each of ${FANOUT_SERVERS} servers`,
        unit: 'ms',
        ...summarize(fanOutLatencies),
        target: 'p99 <= 100',
        notes: `${FANOUT_BANS} bans, ${fanOutLatencies.length} deliveries (clients in one process)`,
      },
    ];
  } finally {
    for (const server of opened) server.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
