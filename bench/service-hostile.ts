import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { hostileRawRequest } from '../test/service/helpers/hostile-raw.js';
import { hostileRequest } from '../test/service/helpers/hostile-requests.js';
import { type HostileOutcome, HostileTarget } from '../test/service/helpers/hostile-target.js';
import { type BenchResult, summarize } from './result.js';

const REQUESTS = 10_000;
/** One request in ten is raw bytes on its own connection (broken HTTP, handshakes). */
const RAW_EVERY = 10;
const ALIVE_EVERY = 500;
const SEED = Number(process.env.BAILIFF_PROPERTY_SEED ?? 1_202_612);
const MB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGcMb = () => {
  gc();
  return process.memoryUsage().heapUsed / MB;
};

// Each request from its own seed, so the run is reproducible without holding 10,000 bodies at once.
const one = <T>(arbitrary: fc.Arbitrary<T>, index: number): T =>
  fc.sample(arbitrary, { seed: SEED + index, numRuns: 1 })[0]!;

/**
 * 10,000 seeded hostile requests over every route of the reference service (the generators of
 * test/service/hostile-properties.test.ts): status histogram, latency, 5xx, broken promises, RSS.
 */
export async function run(): Promise<BenchResult[]> {
  const target = await HostileTarget.start();
  const histogram = new Map<string, number>();
  const latencies: number[] = [];
  const problems: string[] = [];
  let heapAfterWarmupMb = 0;
  let heapEndMb = 0;
  let rssEndMb = 0;
  try {
    for (let index = 0; index < REQUESTS; index += 1) {
      let outcome: HostileOutcome;
      let sentNothing = false;
      if (index % RAW_EVERY === RAW_EVERY - 1) {
        const bytes = one(hostileRawRequest, index);
        sentNothing = bytes.length === 0;
        outcome = await target.sendRaw(bytes);
      } else {
        const request = one(hostileRequest, index);
        outcome = await target.send(request);
        latencies.push(outcome.ms);
      }
      // A connection that sends no bytes has nothing to be answered.
      const key = String(outcome.status ?? (sentNothing ? 'empty connection' : 'no answer'));
      histogram.set(key, (histogram.get(key) ?? 0) + 1);
      problems.push(...outcome.problems.map((problem) => `#${index}: ${problem}`));
      if (index % ALIVE_EVERY === ALIVE_EVERY - 1) {
        problems.push(...(await target.aliveProblems()).map((problem) => `after #${index}: ${problem}`));
      }
      if (index === 999) heapAfterWarmupMb = heapAfterGcMb();
    }
    problems.push(...(await target.aliveProblems(true)).map((problem) => `at the end: ${problem}`));
    heapEndMb = heapAfterGcMb();
    rssEndMb = process.memoryUsage().rss / MB;
  } finally {
    await target.close();
  }
  const fiveHundreds = [...histogram].filter(([status]) => status.startsWith('5')).reduce((sum, [, n]) => sum + n, 0);
  const statuses = [...histogram]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  process.stderr.write(`service-hostile: seed ${SEED}, status histogram ${statuses}\n`);
  for (const problem of problems.slice(0, 20)) process.stderr.write(`service-hostile problem ${problem}\n`);
  if (problems.length > 0) process.exitCode = 1;
  const notes = `seed ${SEED}; ${statuses}`;
  return [
    { name: 'hostile requests sent (1 in 10 raw bytes)', unit: 'requests', value: REQUESTS, notes },
    { name: 'hostile HTTP request round trip', unit: 'ms', ...summarize(latencies) },
    { name: '5xx answers', unit: 'requests', value: fiveHundreds, target: '0' },
    {
      name: 'broken promises (5xx, shape, state changed by a refusal, liveness)',
      unit: 'count',
      value: problems.length,
      target: '0',
    },
    {
      name: 'heap growth after GC from request 1,000 to 10,000',
      unit: 'MB',
      value: heapEndMb - heapAfterWarmupMb,
      notes: `heap ${heapEndMb.toFixed(0)} MB, RSS ${rssEndMb.toFixed(0)} MB at the end (service and client in one process)`,
    },
  ];
}
