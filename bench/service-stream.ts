import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchResult, summarize } from './result.js';
import { startLoginProbeProcess } from './support/login-probe-process.js';
import {
  addBans,
  type ServiceProcess,
  serverKey,
  startServiceProcess,
  writeStreamFixture,
} from './support/stream-fixture.js';
import { connectSimServer, type SimServer } from './support/stream-sim-server.js';
import { fanOut, type StormResult, storm, withTimeout } from './support/stream-storm.js';

const ACTIVE_BANS = Number(process.env.BAILIFF_BENCH_STREAM_BANS ?? 100_000);
const STORM_SERVERS = Number(process.env.BAILIFF_BENCH_STREAM_SERVERS ?? 200);
const FANOUT_SERVERS = Number(process.env.BAILIFF_BENCH_FANOUT_SERVERS ?? 1000);
const CHANGES_WHILE_DOWN = 100;
const FANOUT_BANS = 20;
const QUIET_PROBE_MS = 5000;
const SERVICE_OPTIONS = {
  pingIntervalMs: 60_000,
  rateLimitPerMinute: 100_000,
  adminToken: 'bench-admin-token-0123456789',
};

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
    await writeStreamFixture(dbPath, Math.max(STORM_SERVERS, FANOUT_SERVERS) + 1, ACTIVE_BANS);
    const fixtureMs = performance.now() - fixtureStarted;

    service = await startServiceProcess(dbPath, SERVICE_OPTIONS);
    const quiet = await startLoginProbeProcess(service.url, serverKey(STORM_SERVERS), ACTIVE_BANS);
    await new Promise((resolve) => setTimeout(resolve, QUIET_PROBE_MS));
    const quietLogin = await quiet.stop();
    const first = await storm(service, STORM_SERVERS, ACTIVE_BANS);
    opened.push(...first.servers);
    const snapshotMb = first.servers[0]!.snapshotBytes() / 1024 / 1024;
    const positions = first.servers.map((server) => server.position()!);
    const firstRenders = service.snapshotsRendered();
    for (const server of first.servers) server.close();
    await service.close();

    addBans(dbPath, CHANGES_WHILE_DOWN, 'while-down');
    service = await startServiceProcess(dbPath, SERVICE_OPTIONS);
    const resumed = await storm(service, STORM_SERVERS, ACTIVE_BANS, positions);
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
    const fanOutLatencies = await fanOut(service, fanOutServers, FANOUT_BANS);

    const loopDelayRow = (storm: string, result: StormResult): BenchResult => ({
      name: `${storm}: service event-loop delay meanwhile`,
      unit: 'ms',
      p50: result.loopDelay.p50,
      p99: result.loopDelay.p99,
      value: result.loopDelay.max,
      notes:
        'value = the longest the service kept a request or a stream step waiting (monitorEventLoopDelay, 1 ms resolution)',
    });
    const cpuRow = (storm: string, result: StormResult): BenchResult => ({
      name: `${storm}: service CPU time`,
      unit: 'ms',
      value: result.serviceCpuMs,
      notes: 'user + system time of the service process from the first connection until every server was caught up',
    });
    const probeNotes = (result: StormResult) =>
      `${result.login.count} checks from a probe in its own process, whose own event loop ran up to ${result.login.probeLoopDelayMaxMs.toFixed(0)} ms late`;
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
        notes: probeNotes(first),
      },
      loopDelayRow('first-time storm', first),
      cpuRow('first-time storm', first),
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
        notes: probeNotes(resumed),
      },
      loopDelayRow('resume storm', resumed),
      cpuRow('resume storm', resumed),
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
