import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { type BenchResult, summarize } from './result.js';
import { describeGc, type LoopStats } from './support/loop-stats.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';
import { startPacedLoginProcess } from './support/paced-login-process.js';
import type { PacedStorm, PacedStormResult } from './support/paced-logins.js';
import { cpuOf, loopOf, resetLoopOf, startServiceProcess, stopServiceProcess } from './support/service-process.js';

/** The storm of a restart: every game server reconnects and every player rejoins, from the moment the service is up. */
const RESTART = { perSecond: 500, seconds: 2 };
/** The same rate once the service has run a while. */
const WARM = { perSecond: 500, seconds: 20 };
/** The most a service answers: paced at 2,000 a second. */
const FLOOD = { perSecond: 2000, seconds: 10 };
/** Game servers of the paced storms, each with its own kept-alive connection. */
const SERVERS = 200;
/** Requests open at once at most; past it a storm falls behind its target rather than queueing without bound. */
const MAX_IN_FLIGHT = 256;
/**
 * Checks answered before each warm storm, over the connections it then uses: enough for V8 to have
 * optimized the request path, as in a service that has run a while.
 */
const WARM_UP = { perSecond: 1000, seconds: 5 };

const machine = () => `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;

function stormNotes(result: PacedStormResult & { senderLoopDelayMaxMs: number }, what: string): string {
  const max = result.latencies.length > 0 ? Math.max(...result.latencies) : Number.NaN;
  return `${what}; max ${max.toFixed(1)} ms; ${result.unsent} not sent (too far behind); failed: ${JSON.stringify(result.failures)}; sender in its own process (its loop late by at most ${result.senderLoopDelayMaxMs.toFixed(1)} ms); ${machine()}`;
}

function loopRow(name: string, loop: LoopStats): BenchResult {
  return {
    name,
    unit: 'ms',
    p50: loop.p50,
    p99: loop.p99,
    value: loop.max,
    target: 'p99 <= 5 ms',
    notes: `value = longest; monitorEventLoopDelay in the service process, 1 ms resolution (an idle loop reads about 1 ms); ${describeGc(loop)}`,
  };
}

/**
 * Login storms against the service in its own process over HTTP on 127.0.0.1, at network size
 * (1,000,000 punishments stored, 100,000 active, 20,000 players): a restart's storm from the
 * moment a fresh service is up, the same rate once it is warm, and the most it answers.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-storm-'));
  try {
    const fixture = networkFixtureCopy(NETWORK_AT_SCALE, dir, Date.now());
    const sender = await startPacedLoginProcess(fixture.facts);
    try {
      const { child, url } = await startServiceProcess(fixture.path);
      try {
        const loginUrl = `${url}/v1/minecraft/player/login`;
        let firstBody = 0;
        const paced = (rate: { perSecond: number; seconds: number }, servers: number, keepConnections: boolean) => {
          const storm: PacedStorm = {
            url: loginUrl,
            facts: fixture.facts,
            total: rate.perSecond * rate.seconds,
            perSecond: rate.perSecond,
            firstBody,
            servers,
            maxInFlight: MAX_IN_FLIGHT,
            keepConnections,
          };
          firstBody += storm.total;
          return storm;
        };
        const warmUp = async (servers: number) => {
          const { failures } = await sender.storm(paced(WARM_UP, servers, false));
          if (Object.keys(failures).length > 0)
            throw new Error(`warm-up login checks failed: ${JSON.stringify(failures)}`);
        };
        // The service child's loop statistics start the moment it is up: the restart storm's window.
        const restart = await sender.storm(paced(RESTART, SERVERS, false));
        const restartLoop = await loopOf(child);

        await warmUp(SERVERS);
        resetLoopOf(child);
        const warm = await sender.storm(paced(WARM, SERVERS, true));
        const warmLoop = await loopOf(child);

        await warmUp(MAX_IN_FLIGHT);
        const cpuBefore = await cpuOf(child);
        const flood = await sender.storm(paced(FLOOD, MAX_IN_FLIGHT, true));
        const cpuPerCheckUs = ((await cpuOf(child)) - cpuBefore) / Math.max(1, flood.latencies.length);
        const achieved = (flood.latencies.length * 1000) / flood.elapsedMs;
        const floodTotal = FLOOD.perSecond * FLOOD.seconds;
        return [
          {
            name: "restart's login storm: 500/s for 2 s from the moment a fresh service is up (SQLite, 100,000 active)",
            unit: 'ms',
            ...summarize(restart.latencies),
            value: restart.latencies.length > 0 ? Math.max(...restart.latencies) : Number.NaN,
            target: 'p99 <= 10 ms',
            notes: stormNotes(
              restart,
              `value = max; ${restart.latencies.length} answered of ${RESTART.perSecond * RESTART.seconds}, sent by ${SERVERS} game servers each opening its connection with its first check`,
            ),
          },
          loopRow("restart's login storm: service event-loop delay (from the moment it is up)", restartLoop),
          {
            name: 'login storm: 500/s for 20 s, warm service (SQLite, 100,000 active)',
            unit: 'ms',
            ...summarize(warm.latencies),
            value: warm.latencies.length > 0 ? Math.max(...warm.latencies) : Number.NaN,
            target: 'p99 <= 5 ms',
            notes: stormNotes(
              warm,
              `value = max; ${warm.latencies.length} answered of ${WARM.perSecond * WARM.seconds}, from ${SERVERS} game servers over the connections of ${WARM_UP.perSecond * WARM_UP.seconds} checks of warm-up`,
            ),
          },
          loopRow('login storm 500/s, warm: service event-loop delay', warmLoop),
          {
            name: 'login storm (target 2,000/s, SQLite, 1M stored)',
            unit: 'ms',
            ...summarize(flood.latencies),
            value: achieved,
            target: 'value = achieved checks/s',

            notes: stormNotes(
              flood,
              `${floodTotal} checks paced at ${FLOOD.perSecond}/s by ${MAX_IN_FLIGHT} game servers after ${WARM_UP.perSecond * WARM_UP.seconds} of warm-up, at most ${MAX_IN_FLIGHT} open`,
            ),
          },
          {
            name: 'service CPU per login check (during the storm)',
            unit: 'us',
            value: cpuPerCheckUs,
            notes: `user + system time of the service process over the 2,000/s storm, per answered check: one core answers about ${Math.round(1_000_000 / cpuPerCheckUs)} checks/s`,
          },
        ];
      } finally {
        await stopServiceProcess(child);
      }
    } finally {
      sender.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
