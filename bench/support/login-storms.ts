import { cpus, loadavg } from 'node:os';
import type { FixtureFacts } from '../../test/service/helpers/network-fixture.js';
import { type BenchResult, summarize } from '../result.js';
import { describeGc, type LoopStats } from './loop-stats.js';
import { startPacedLoginProcess } from './paced-login-process.js';
import type { PacedStorm, PacedStormResult } from './paced-logins.js';
import { cpuOf, cpuUsageOf, loopOf, resetLoopOf, startServiceProcess, stopServiceProcess } from './service-process.js';

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
const maxOf = (latencies: number[]) => (latencies.length > 0 ? Math.max(...latencies) : Number.NaN);
/** The service's CPU time (user + system, us) over a storm, per check it answered: less disturbed by a busy machine than the latencies. */
const cpuPerCheck = (cpuUs: number, storm: PacedStormResult) => cpuUs / Math.max(1, storm.latencies.length);
/** The service's CPU time a check over a storm, and the kernel's share of it (page faults of the memory map, sockets). */
function describeCpu(before: NodeJS.CpuUsage, after: NodeJS.CpuUsage, storm: PacedStormResult): string {
  const user = cpuPerCheck(after.user - before.user, storm);
  const system = cpuPerCheck(after.system - before.system, storm);
  return `service CPU ${(user + system).toFixed(0)} us a check (${system.toFixed(0)} of it system)`;
}

function stormNotes(result: PacedStormResult & { senderLoopDelayMaxMs: number }, what: string): string {
  return `${what}; ${result.unsent} not sent (too far behind); failed: ${JSON.stringify(result.failures)}; sender in its own process (its loop late by at most ${result.senderLoopDelayMaxMs.toFixed(1)} ms); ${machine()}`;
}

function loopRow(name: string, loop: LoopStats, target: string | undefined): BenchResult {
  return {
    name,
    unit: 'ms',
    p50: loop.p50,
    p99: loop.p99,
    value: loop.max,
    ...(target === undefined ? {} : { target }),
    notes: `value = longest; monitorEventLoopDelay in the service process, 1 ms resolution (an idle loop reads about 1 ms); ${describeGc(loop)}`,
  };
}

export interface StormedService {
  /** A SQLite file or a `postgres://` URL holding the network fixture. */
  database: string;
  facts: FixtureFacts;
  /** Named in the rows: `SQLite` or `PostgreSQL`. */
  label: string;
  /** With the targets of the design (SQLite), or figures only (PostgreSQL). */
  withTargets: boolean;
}

/**
 * Login storms against the service in its own process over HTTP on 127.0.0.1, at network size,
 * sent from a process of their own: a restart's storm from the moment a fresh service is up, the
 * same rate once it is warm, and the most it answers (2,000 a second asked).
 */
export async function loginStorms({ database, facts, label, withTargets }: StormedService): Promise<BenchResult[]> {
  const sender = await startPacedLoginProcess(facts);
  try {
    const { child, url, cpuAtUp } = await startServiceProcess(database);
    try {
      const loginUrl = `${url}/v1/minecraft/player/login`;
      let firstBody = 0;
      const paced = (rate: { perSecond: number; seconds: number }, servers: number, keepConnections: boolean) => {
        const storm: PacedStorm = {
          url: loginUrl,
          facts,
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
      // A wrong answer stops the bench; a connection lost on a loaded machine is only told in the next row's notes.
      const warmUp = async (servers: number) => {
        const { failures } = await sender.storm(paced(WARM_UP, servers, false));
        const answered = Object.keys(failures).filter((reason) => reason.startsWith('HTTP '));
        if (answered.length > 0) throw new Error(`warm-up login checks failed: ${JSON.stringify(failures)}`);
        return Object.keys(failures).length > 0 ? `; warm-up lost: ${JSON.stringify(failures)}` : '';
      };
      // The service child's loop statistics start the moment it is up: the restart storm's window.
      const restart = await sender.storm(paced(RESTART, SERVERS, false));
      const restartLoop = await loopOf(child);
      const restartCpu = describeCpu(cpuAtUp, await cpuUsageOf(child), restart);

      const warmLost = await warmUp(SERVERS);
      resetLoopOf(child);
      const warmCpuBefore = await cpuUsageOf(child);
      const warm = await sender.storm(paced(WARM, SERVERS, true));
      const warmLoop = await loopOf(child);
      const warmCpu = describeCpu(warmCpuBefore, await cpuUsageOf(child), warm);

      const floodLost = await warmUp(MAX_IN_FLIGHT);
      const cpuBefore = await cpuOf(child);
      const flood = await sender.storm(paced(FLOOD, MAX_IN_FLIGHT, true));
      const cpuPerCheckUs = cpuPerCheck((await cpuOf(child)) - cpuBefore, flood);
      const achieved = (flood.latencies.length * 1000) / flood.elapsedMs;
      const warmUpChecks = WARM_UP.perSecond * WARM_UP.seconds;
      const target = (text: string) => (withTargets ? { target: text } : {});
      return [
        {
          name: `restart's login storm: 500/s for 2 s from the moment a fresh service is up (${label}, 100,000 active)`,
          unit: 'ms',
          ...summarize(restart.latencies),
          value: maxOf(restart.latencies),
          ...target('p99 <= 10 ms'),
          notes: stormNotes(
            restart,
            `value = max; ${restart.latencies.length} answered of ${RESTART.perSecond * RESTART.seconds}, sent by ${SERVERS} game servers each opening its connection with its first check; ${restartCpu}`,
          ),
        },
        loopRow(
          `restart's login storm: service event-loop delay from the moment it is up (${label})`,
          restartLoop,
          withTargets ? 'p99 <= 5 ms' : undefined,
        ),
        {
          name: `login storm: 500/s for 20 s, warm service (${label}, 100,000 active)`,
          unit: 'ms',
          ...summarize(warm.latencies),
          value: maxOf(warm.latencies),
          ...target('p99 <= 5 ms'),
          notes: stormNotes(
            warm,
            `value = max; ${warm.latencies.length} answered of ${WARM.perSecond * WARM.seconds}, from ${SERVERS} game servers over the connections of ${warmUpChecks} checks of warm-up${warmLost}; ${warmCpu}`,
          ),
        },
        loopRow(
          `login storm 500/s, warm: service event-loop delay (${label})`,
          warmLoop,
          withTargets ? 'p99 <= 5 ms' : undefined,
        ),
        {
          name: `login storm (target 2,000/s, ${label}, 1M stored)`,
          unit: 'ms',
          ...summarize(flood.latencies),
          value: achieved,
          target: 'value = achieved checks/s',
          notes: stormNotes(
            flood,
            `${FLOOD.perSecond * FLOOD.seconds} checks paced at ${FLOOD.perSecond}/s by ${MAX_IN_FLIGHT} game servers after ${warmUpChecks} of warm-up, at most ${MAX_IN_FLIGHT} open; max ${maxOf(flood.latencies).toFixed(1)} ms${floodLost}`,
          ),
        },
        {
          name: `service CPU per login check (during the storm, ${label})`,
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
}
