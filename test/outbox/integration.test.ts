import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { openDb } from '../../src/db/open-db.js';
import { createOutbox, type Outbox, type OutboxCall } from '../../src/outbox/index.js';
import type { RunningService } from '../../src/service/index.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import type { Fault } from '../support/fault-plan.js';
import { API_KEY, adminPunishment, playerUuid, seedWithBans, startService } from './helpers/service-fixture.js';

const BANS = 24;
// The first requests meet every fault once or more; the rest pass, so the run is bounded.
const PASS: Fault = { kind: 'pass' };
const SERVER_ERROR: Fault = { kind: 'server-error', status: 500 };
const DROP_BEFORE: Fault = { kind: 'drop-before' };
const DROP_AFTER: Fault = { kind: 'drop-after' };
const SLOW: Fault = { kind: 'slow', delayMs: 200 };
// Longer than the client's 1 s timeout.
const STALL: Fault = { kind: 'slow', delayMs: 1500 };
const RATE_LIMIT: Fault = { kind: 'rate-limit', channel: 'retry-after', waitSeconds: 1 };
const FAULTS: Fault[] = [SERVER_ERROR, DROP_BEFORE, DROP_AFTER, SLOW, PASS, STALL, SERVER_ERROR, SLOW];
const FAULTY_REQUESTS = 40;
// Each 429 pauses the whole drain for its Retry-After (1 s), so only two of them.
const RATE_LIMITED = new Set([0, 24]);

let service: RunningService;
let proxy: ContractProxy;
let outbox: Outbox;
const rowsOf = new Map<number, OutboxCall>();

function bodyMatches(body: string, call: OutboxCall): boolean {
  const payload = call.operation === 'addEvidence' ? call.payload.body : call.payload;
  try {
    return isDeepStrictEqual(JSON.parse(body), payload);
  } catch {
    return false;
  }
}

async function drained(box: Outbox, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const stats = box.stats();
    if (stats.pending === 0 && stats.inFlight === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`outbox not drained after ${timeoutMs} ms: ${JSON.stringify(box.stats())}`);
}

beforeAll(async () => {
  service = await startService({ port: 0, seed: seedWithBans(BANS) });
  proxy = await startContractProxy({
    upstream: () => service.url,
    profile: 'reference',
    plan: ({ index }) => {
      if (RATE_LIMITED.has(index)) return RATE_LIMIT;
      return index < FAULTY_REQUESTS ? FAULTS[index % FAULTS.length]! : PASS;
    },
  });
  const client = createModerationClient({ baseUrl: proxy.url, apiKey: API_KEY, timeoutMs: 1000 });
  outbox = createOutbox({
    db: openDb(':memory:'),
    client,
    settings: { concurrency: 4, baseDelayMs: 20, maxDelayMs: 200, requestsPerMinute: 60_000 },
  });
});

afterAll(async () => {
  await outbox?.stop();
  await proxy?.close();
  await service?.close();
});

describe('outbox against the reference service behind a faulty proxy', () => {
  it('delivers every row despite 429, 500, dropped and slow connections, and never retries a 4xx', async () => {
    const enqueue = (call: OutboxCall, key: string, orderingKey?: string) => {
      const { id } = outbox.enqueue(call, { idempotencyKey: key, orderingKey });
      rowsOf.set(id, call);
    };
    for (let index = 0; index < BANS; index += 1) {
      const punishmentId = `ban-${index}`;
      const playerUuidOf = playerUuid(index);
      enqueue(
        { operation: 'acknowledgePunishment', payload: { punishmentId, playerUuid: playerUuidOf, success: true } },
        `ack:${punishmentId}`,
        punishmentId,
      );
      if (index % 3 === 0) {
        enqueue(
          {
            operation: 'acknowledgeNotifications',
            payload: { playerUuid: playerUuidOf, notificationIds: [punishmentId] },
          },
          `notice:${punishmentId}`,
          punishmentId,
        );
      }
      if (index % 4 === 0) {
        enqueue(
          {
            operation: 'addEvidence',
            payload: { punishmentId, body: { issuerName: 'Mod', evidenceUrl: `https://example.com/${index}.png` } },
          },
          `evidence:${punishmentId}`,
          punishmentId,
        );
      }
    }
    enqueue({ operation: 'registerPlayer', payload: { uuid: playerUuid(900), name: 'newcomer' } }, 'login:900');
    // Rejected by the service (404): dead letters after exactly one answer.
    const rejected = [
      {
        operation: 'acknowledgePunishment',
        payload: { punishmentId: 'no-such-ban', playerUuid: playerUuid(1), success: true },
      },
      {
        operation: 'createPunishmentDynamic',
        payload: { targetUuid: playerUuid(999), typeOrdinal: 2, issuerName: 'Mod' },
      },
      {
        operation: 'addEvidence',
        payload: { punishmentId: 'no-such-ban', body: { issuerName: 'Mod', evidenceUrl: 'https://example.com/x.png' } },
      },
    ] satisfies OutboxCall[];
    for (const [index, call] of rejected.entries()) enqueue(call, `rejected:${index}`);

    const paused: number[] = [];
    outbox.events.on('outbox:paused', (event) => paused.push(event.untilMs));
    outbox.start();
    await drained(outbox, 30_000);

    const stats = outbox.stats();
    expect(stats).toMatchObject({
      pending: 0,
      inFlight: 0,
      dead: rejected.length,
      sent: rowsOf.size - rejected.length,
    });
    expect(outbox.deadLetters().map((letter) => letter.reason)).toEqual(
      rejected.map(() => expect.stringContaining('404')),
    );
    expect(paused.length).toBeGreaterThanOrEqual(1);
    // every kind of fault was met
    expect(new Set(proxy.log.requests.map((request) => request.fault))).toEqual(new Set([RATE_LIMIT, ...FAULTS]));

    for (const call of rejected) {
      const attempts = proxy.log.requests.filter((request) => bodyMatches(request.body, call));
      // a 404 lost on the way back (dropped or stalled) was never seen by the outbox
      const answered4xx = attempts.filter(
        (request) => request.upstreamStatus === 404 && (request.fault === PASS || request.fault === SLOW),
      );
      expect(answered4xx).toHaveLength(1);
      expect(attempts.at(-1)).toBe(answered4xx[0]); // nothing was sent after the 404
    }

    for (let index = 0; index < BANS; index += 1) {
      const seen = await adminPunishment(service, `ban-${index}`);
      expect(seen.acknowledgements.length, `ban-${index}`).toBeGreaterThanOrEqual(1);
      expect(seen.punishment.started, `ban-${index}`).toEqual(expect.any(String));
      if (index % 3 === 0) expect(seen.notificationAcknowledged, `ban-${index}`).toBe(true);
      if (index % 4 === 0) expect(seen.evidence.length, `ban-${index}`).toBeGreaterThanOrEqual(1);
    }
  });
});
