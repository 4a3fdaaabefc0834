import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type FixtureFacts, NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { type BenchResult, summarize } from './result.js';
import { loginBody } from './support/login-bodies.js';
import { postLogin } from './support/login-post.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';
import { cpuOf, startServiceProcess, stopServiceProcess } from './support/service-process.js';

const TARGET_PER_SECOND = 2000;
const STORM_MS = 10_000;
const TOTAL = (TARGET_PER_SECOND * STORM_MS) / 1000;
/** Requests open at once at most; past it the storm falls behind its target rather than queueing without bound. */
const MAX_IN_FLIGHT = 256;
/** Checks answered before the storm: enough for V8 to have optimized the request path, as in a service that has run a while. */
const WARM_UP = 5000;
/** Connections are opened this far apart before the storm: a burst of connects overflows the listen queue and
 * leaves some waiting for SYN retransmits (seconds), which would be measured as the service's latency. */
const CONNECTION_RAMP_MS = 5;

interface Storm {
  latencies: number[];
  /** Answered with another status than 200, or not answered at all. */
  failures: Map<string, number>;
  /** Not sent: the storm fell too far behind its target. */
  unsent: number;
  elapsedMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens the agent's `MAX_IN_FLIGHT` connections one after another, as game servers hold theirs
 * before a storm, and warms the service up with `WARM_UP` checks over them.
 */
async function openConnections(agent: Agent, url: string, facts: FixtureFacts): Promise<void> {
  let next = 0;
  const worker = async (index: number) => {
    await sleep(index * CONNECTION_RAMP_MS);
    do {
      const { status } = await postLogin(agent, url, loginBody(next++, NETWORK_AT_SCALE, facts));
      if (status !== 200) throw new Error(`warm-up login check answered ${status}`);
    } while (next < WARM_UP);
  };
  await Promise.all(Array.from({ length: MAX_IN_FLIGHT }, (_, index) => worker(index)));
}

/**
 * Sends `TOTAL` login checks paced at `TARGET_PER_SECOND`, at most `MAX_IN_FLIGHT` at once over the
 * agent's kept-alive connections (one per game server), timed from send to last byte.
 */
async function storm(agent: Agent, url: string, facts: FixtureFacts): Promise<Storm> {
  const latencies: number[] = [];
  const failures = new Map<string, number>();
  const fail = (reason: string) => failures.set(reason, (failures.get(reason) ?? 0) + 1);
  let launched = 0;
  let inFlight = 0;
  const began = performance.now();
  const send = async (n: number) => {
    const sent = performance.now();
    try {
      const { status } = await postLogin(agent, url, loginBody(WARM_UP + n, NETWORK_AT_SCALE, facts));
      if (status === 200) latencies.push(performance.now() - sent);
      else fail(`HTTP ${status}`);
    } catch (error) {
      fail(error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error));
    } finally {
      inFlight -= 1;
    }
  };
  // Bounded: each pass launches at least one request or waits a millisecond, and gives up at three times the storm.
  while (launched < TOTAL && performance.now() - began < STORM_MS * 3) {
    const due = Math.min(TOTAL, Math.floor(((performance.now() - began) * TARGET_PER_SECOND) / 1000));
    while (launched < due && inFlight < MAX_IN_FLIGHT) {
      inFlight += 1;
      void send(launched);
      launched += 1;
    }
    await sleep(1);
  }
  for (let waited = 0; inFlight > 0 && waited < 30_000; waited += 10) await sleep(10);
  return { latencies, failures, unsent: TOTAL - launched, elapsedMs: performance.now() - began };
}

/** A login storm at 2,000 checks a second against the service in its own process, over HTTP on 127.0.0.1. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-storm-'));
  try {
    const fixture = networkFixtureCopy(NETWORK_AT_SCALE, dir, Date.now());
    const { child, url } = await startServiceProcess(fixture.path);
    const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT, maxFreeSockets: MAX_IN_FLIGHT });
    try {
      const loginUrl = `${url}/v1/minecraft/player/login`;
      await openConnections(agent, loginUrl, fixture.facts);
      const cpuBefore = await cpuOf(child);
      const result = await storm(agent, loginUrl, fixture.facts);
      const cpuPerCheckUs = ((await cpuOf(child)) - cpuBefore) / Math.max(1, result.latencies.length);
      const achieved = (result.latencies.length * 1000) / result.elapsedMs;
      return [
        {
          name: 'login storm (target 2,000/s, SQLite, 1M stored)',
          unit: 'ms',
          ...summarize(result.latencies),
          value: achieved,
          target: 'value = achieved checks/s',
          notes: `${TOTAL} checks paced at ${TARGET_PER_SECOND}/s, at most ${MAX_IN_FLIGHT} open; ${result.unsent} not sent (too far behind); failed: ${JSON.stringify(Object.fromEntries(result.failures))}; service in its own process; load generator in the bench process on the same cores; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
        },
        {
          name: 'service CPU per login check (during the storm)',
          unit: 'us',
          value: cpuPerCheckUs,
          notes: `user + system time of the service process over the storm, per answered check: one core answers about ${Math.round(1_000_000 / cpuPerCheckUs)} checks/s`,
        },
      ];
    } finally {
      agent.destroy();
      await stopServiceProcess(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
