import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import { openDb } from '../../src/db/open-db.js';
import { createOutbox, type Outbox } from '../../src/outbox/index.js';
import type { RunningService } from '../../src/service/index.js';
import { describeClientViolations, sentInsideClientWindows } from '../support/client-windows.js';
import { startContractProxy } from '../support/contract-proxy.js';
import { type RetryChannel, withRules } from '../support/fault-plan.js';
import { type RecordedFetch, recordingFetch } from '../support/fetch-recorder.js';
import { API_KEY, adminPunishment, playerUuid, seedWithBans, startService } from './helpers/service-fixture.js';

const ROWS = 20;
/** The budget of ten a second lets a second's worth go at once: the 429 answers the eleventh, when rows wait in line. */
const PASSED_FIRST = 10;
/** The body of each 429 comes this long after its status line, as from a proxy streaming answers. */
const BODY_DELAY_MS = 300;
const CHANNELS: RetryChannel[] = ['body', 'retry-after', 'header-and-body', 'http-date', 'x-rate-limit'];

let service: RunningService;

beforeAll(async () => {
  service = await startService({ port: 0, seed: seedWithBans(ROWS) });
});

afterAll(async () => {
  await service?.close();
});

async function drained(outbox: Outbox, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const stats = outbox.stats();
    if (stats.pending === 0 && stats.inFlight === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`outbox not drained after ${timeoutMs} ms: ${JSON.stringify(outbox.stats())}`);
}

/**
 * Issue 31, item 0: the outbox's rows wait in line for the gate's request budget (ten a second)
 * when a 429 arrives whose body comes later. From the moment its status line reaches the client,
 * whatever form its wait takes, no row may leave until the wait is over: by the client's own
 * order and clock (the same recorder the e2e tests preload).
 */
describe('outbox rows queued at the gate when a 429 arrives, its body late', () => {
  it.each(CHANNELS)(
    'with the wait in %s, none is sent inside the window and every row is delivered',
    async (channel) => {
      const proxy = await startContractProxy({
        upstream: () => service.url,
        profile: 'contract',
        plan: withRules([
          { path: /acknowledge$/, fault: { kind: 'pass' }, times: PASSED_FIRST },
          {
            path: /acknowledge$/,
            fault: { kind: 'rate-limit', channel, waitSeconds: 1, bodyDelayMs: BODY_DELAY_MS },
            times: 1,
          },
        ]),
      });
      const log: RecordedFetch[] = [];
      const client = createModerationClient({
        baseUrl: proxy.url,
        apiKey: API_KEY,
        fetch: recordingFetch(globalThis.fetch, (entry) => log.push(entry)),
        gate: new RateLimitGate({ requestsPerMinute: 600 }),
      });
      const outbox = createOutbox({
        db: openDb(':memory:'),
        client,
        settings: { concurrency: 4, baseDelayMs: 20, maxDelayMs: 200, requestsPerMinute: 60_000 },
      });
      const ids = Array.from({ length: ROWS }, (_, index) => `ban-${index}`);
      try {
        for (const [index, punishmentId] of ids.entries()) {
          const payload = { punishmentId, playerUuid: playerUuid(index), success: true };
          outbox.enqueue(
            { operation: 'acknowledgePunishment', payload },
            { idempotencyKey: `ack:${channel}:${punishmentId}` },
          );
        }
        outbox.start();
        await drained(outbox, 20_000);
      } finally {
        await outbox.stop();
        await proxy.close();
      }

      expect(log.filter((entry) => entry.event === 'rate-limited')).toHaveLength(1);
      expect(proxy.log.windows).toHaveLength(1);
      const inside = sentInsideClientWindows(log, new URL(proxy.url).origin);
      expect(describeClientViolations(inside)).toEqual([]);
      expect(outbox.stats()).toMatchObject({ pending: 0, inFlight: 0, dead: 0 });
      for (const id of ids) {
        expect((await adminPunishment(service, id)).acknowledgements.length, id).toBeGreaterThanOrEqual(1);
      }
    },
  );
});
