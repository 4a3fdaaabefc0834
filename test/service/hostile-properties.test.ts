import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileRawRequest } from './helpers/hostile-raw.js';
import { type HostileRequest, hostileRequestFor } from './helpers/hostile-requests.js';
import { HOSTILE_ROUTES } from './helpers/hostile-routes.js';
import { HostileTarget } from './helpers/hostile-target.js';

// Property-based: seeded, so a failure names the seed and replays with BAILIFF_PROPERTY_SEED=<seed>.
// The long run (10,000 requests) is `npm run bench -- service-hostile`.
const SEED = Number(process.env.BAILIFF_PROPERTY_SEED ?? 1_202_612);
const RUNS_PER_ROUTE = Number(process.env.BAILIFF_PROPERTY_RUNS ?? 25);

let target: HostileTarget;
beforeAll(async () => {
  target = await HostileTarget.start();
});
afterAll(() => target?.close());

const describeRequest = (request: HostileRequest) =>
  `${request.method} ${request.target.slice(0, 160)} (body ${request.body?.length ?? 0} chars)`;

describe('hostile requests (property-based)', () => {
  it.each(HOSTILE_ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s: never 5xx, refusals in the error shape and changing nothing, the service still answers',
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(hostileRequestFor(route), async (request) => {
          const outcome = await target.send(request);
          const problems = [...outcome.problems, ...(await target.aliveProblems())];
          if (problems.length > 0) throw new Error(`${describeRequest(request)}: ${problems.join('; ')}`);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    },
  );

  it('raw connections (broken request lines, headers, bodies, handshakes): never 5xx, refusals in the error shape', async () => {
    await fc.assert(
      fc.asyncProperty(hostileRawRequest, async (bytes) => {
        const outcome = await target.sendRaw(bytes);
        const problems = [...outcome.problems, ...(await target.aliveProblems())];
        if (problems.length > 0)
          throw new Error(`${JSON.stringify(bytes.toString('latin1').slice(0, 160))}: ${problems.join('; ')}`);
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE * 4, endOnFailure: true },
    );
  });

  it('afterwards every read and the stream snapshot still answer', async () => {
    expect(await target.aliveProblems(true)).toEqual([]);
  });
});
