import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseIpAddress } from '../src/ip/ip-range.js';
import { startService } from '../src/service/index.js';
import { openSqliteStorage } from '../src/service/store/open-storage.js';
import { type FixtureFacts, NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { type BenchResult, summarize } from './result.js';
import { httpFloor } from './support/http-floor.js';
import { loginBody } from './support/login-bodies.js';
import { postLogin } from './support/login-post.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';
import { cpuOf, startServiceProcess, stopServiceProcess } from './support/service-process.js';

const WARM_UP = 300;
/** Checks a service answers before it is timed: enough for V8 to have optimized the request path, as in a service that has run a while. */
const HTTP_WARM_UP = 5000;
const SAMPLES = 2000;

/**
 * The reads of one login check straight on the stores, without HTTP: the part the indexes decide,
 * in microseconds. The service is closed by then, so the file is this connection's alone.
 */
async function statementsOnly(path: string, facts: FixtureFacts): Promise<{ p50: number; p99: number }> {
  const storage = await openSqliteStorage(path);
  try {
    const { stores } = storage;
    const durations: number[] = [];
    for (let n = 0; n < WARM_UP + SAMPLES; n += 1) {
      const body = JSON.parse(loginBody(n, NETWORK_AT_SCALE, facts)) as { minecraftUuid: string; ipAddress: string };
      const began = performance.now();
      await stores.punishments.activeFor(facts.networkId, body.minecraftUuid);
      await stores.evasion.activeIpBansHolding(facts.networkId, parseIpAddress(body.ipAddress)!);
      await stores.notifications.pendingFor(facts.networkId, body.minecraftUuid);
      for (const { ip } of await stores.playerIps.addressesOf(facts.networkId, body.minecraftUuid, 0)) {
        await stores.playerIps.accountsOn(facts.networkId, ip, 0, 6);
      }
      if (n >= WARM_UP) durations.push((performance.now() - began) * 1000);
    }
    return summarize(durations);
  } finally {
    await storage.close();
  }
}

/**
 * The same reads through the storage's ports: the answer's reads in one transaction (one lock, a
 * promise per call), then the linked-account reads outside it, as the login check makes them. The difference from
 * {@link statementsOnly} is what the asynchronous store interface costs.
 */
async function throughStorage(path: string, facts: FixtureFacts): Promise<{ p50: number; p99: number }> {
  const storage = await openSqliteStorage(path);
  try {
    const durations: number[] = [];
    for (let n = 0; n < WARM_UP + SAMPLES; n += 1) {
      const body = JSON.parse(loginBody(n, NETWORK_AT_SCALE, facts)) as { minecraftUuid: string; ipAddress: string };
      const address = parseIpAddress(body.ipAddress)!;
      const began = performance.now();
      await storage.transaction(async (stores) => {
        await stores.punishments.activeFor(facts.networkId, body.minecraftUuid);
        await stores.evasion.activeIpBansHolding(facts.networkId, address);
        await stores.notifications.pendingFor(facts.networkId, body.minecraftUuid);
      });
      const { playerIps } = storage.stores;
      for (const { ip } of await playerIps.addressesOf(facts.networkId, body.minecraftUuid, 0)) {
        await playerIps.accountsOn(facts.networkId, ip, 0, 6);
      }
      if (n >= WARM_UP) durations.push((performance.now() - began) * 1000);
    }
    return summarize(durations);
  } finally {
    await storage.close();
  }
}

/**
 * The login check (`POST /player/login`) with 1,000,000 punishments stored and 100,000 active in
 * one network of 20,000 players: sequential calls over HTTP on 127.0.0.1, and how long the service
 * takes to start on that file (statistics included).
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-login-'));
  try {
    const nowMs = Date.now();
    const fixture = await networkFixtureCopy(NETWORK_AT_SCALE, dir, nowMs);
    const startBegan = performance.now();
    const started = await startService({ port: 0, host: '127.0.0.1', dbPath: fixture.path });
    const startMs = performance.now() - startBegan;
    await started.close();
    // The calls go to a service in its own process, as a game server's would: the client's work is not on its loop.
    const { child, url: serviceUrl } = await startServiceProcess(fixture.path);
    let stopped = false;
    try {
      const url = `${serviceUrl}/v1/minecraft/player/login`;
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const durations: number[] = [];
      const justStarted: number[] = [];
      let punishmentsSeen = 0;
      let cpuAtWarmUpEnd = 0;
      for (let n = 0; n < HTTP_WARM_UP + SAMPLES; n += 1) {
        if (n === HTTP_WARM_UP) cpuAtWarmUpEnd = await cpuOf(child);
        const body = loginBody(n, NETWORK_AT_SCALE, fixture.facts);
        const began = performance.now();
        const { status, text } = await postLogin(agent, url, body, true);
        const tookMs = performance.now() - began;
        if (status !== 200) throw new Error(`login check answered ${status}: ${text}`);
        if (n >= WARM_UP && n < WARM_UP + SAMPLES) justStarted.push(tookMs);
        if (n >= HTTP_WARM_UP) {
          durations.push(tookMs);
          punishmentsSeen += (JSON.parse(text!) as { activePunishments?: unknown[] }).activePunishments?.length ?? 0;
        }
      }
      const cpuPerCheckUs = ((await cpuOf(child)) - cpuAtWarmUpEnd) / SAMPLES;
      agent.destroy();
      const shape = `${NETWORK_AT_SCALE.stored.toLocaleString('en')} stored, ${NETWORK_AT_SCALE.active.toLocaleString('en')} active, ${NETWORK_AT_SCALE.players.toLocaleString('en')} players`;
      const machine = `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
      const generated =
        fixture.generatedSeconds === undefined
          ? 'cached fixture'
          : `fixture generated in ${fixture.generatedSeconds.toFixed(0)} s`;
      await stopServiceProcess(child);
      stopped = true;
      const statements = await statementsOnly(fixture.path, fixture.facts);
      const ported = await throughStorage(fixture.path, fixture.facts);
      const floor = await httpFloor(SAMPLES, HTTP_WARM_UP, (n) => loginBody(n, NETWORK_AT_SCALE, fixture.facts));
      return [
        {
          name: 'login check (SQLite, 1M stored, 100k active)',
          unit: 'ms',
          ...summarize(durations),
          target: 'p99 <= 5 ms',
          notes: `${shape}; ${SAMPLES} sequential calls on one kept-alive connection (node:http client) on 127.0.0.1 to the service in its own process, after ${HTTP_WARM_UP.toLocaleString('en')} checks of warm-up; 1 in 10 from an IP-banned address; ${punishmentsSeen} active punishments answered; ${generated}; ${machine}`,
        },
        {
          name: 'login check just after the service started',
          unit: 'ms',
          ...summarize(justStarted),
          notes: `the same calls, ${WARM_UP} to ${WARM_UP + SAMPLES} after start: V8 is still optimizing the request path (of the client too), so the tail is longer`,
        },
        {
          name: 'HTTP round trip floor (bare node:http server)',
          unit: 'ms',
          ...floor,
          notes: `the same client and bodies against a server in its own process that only parses and answers a fixed body: what loopback and waking processes cost on this machine; ${machine}`,
        },
        {
          name: 'service CPU per login check (sequential calls)',
          unit: 'us',
          value: cpuPerCheckUs,
          notes: `user + system time of the service process (its checkpoint thread included) over the ${SAMPLES} calls, per call; less sensitive to other work on the machine than the latencies; ${machine}`,
        },
        {
          name: 'login check reads alone (no HTTP)',
          unit: 'us',
          ...statements,
          notes: `own active punishments, IP bans of the address, pending notices, linked-account addresses; ${SAMPLES} checks in process; ${machine}`,
        },
        {
          name: 'login check reads through the storage ports (no HTTP)',
          unit: 'us',
          ...ported,
          notes: `the same reads, in the login check's transaction on the one store (BEGIN IMMEDIATE, a promise per call); ${SAMPLES} checks in process; ${machine}`,
        },
        {
          name: 'service start on that file (migrations + statistics)',
          unit: 'ms',
          value: startMs,
          notes: 'PRAGMA optimize with analysis_limit, page cache cold after the copy',
        },
      ];
    } finally {
      if (!stopped) await stopServiceProcess(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
