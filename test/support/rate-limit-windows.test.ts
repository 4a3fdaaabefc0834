import { describe, expect, it } from 'vitest';
import { CONTRACT_FAULT_DECK, CREATION_FAULT_DECK, seededDeckPlan } from './fault-plan.js';
import {
  faultLabel,
  INJECTED_FAULT_LABELS,
  type ProxiedRequestEntry,
  type ProxyLog,
  type RateLimitWindow,
} from './proxy-log.js';
import { requestsCrossingWindows, requestsInsideWindows, violationsByCaller } from './rate-limit-windows.js';

const OPENS = 1_000_000;

function request(index: number, arrivedAtMs: number, more: Partial<ProxiedRequestEntry> = {}): ProxiedRequestEntry {
  return {
    index,
    arrivedAtMs,
    method: 'GET',
    path: '/v1/minecraft/punishments/recent',
    query: '?hours=48',
    endpoint: 'recentPunishments',
    key: 'key#1',
    body: '',
    connection: 100 + index,
    upgrade: false,
    fault: { kind: 'pass' },
    ...more,
  };
}

const window: RateLimitWindow = {
  key: 'key#1',
  requestIndex: 0,
  channel: 'retry-after',
  waitSeconds: 2,
  opensAtMs: OPENS,
  closesAtMs: OPENS + 2000,
};
const ack = { method: 'POST', endpoint: 'acknowledgePunishment', path: '/v1/minecraft/punishments/acknowledge' };
const creation = {
  method: 'POST',
  endpoint: 'createPunishmentDynamic',
  path: '/v1/minecraft/punishments/dynamic',
  query: '',
  body: '{"reason":"x"}',
};
const indexes = (found: Array<{ request: ProxiedRequestEntry }>) => found.map((each) => each.request.index);

describe('requests inside 429 windows', () => {
  it('counts what arrived inside the window of its key, up to the clock tolerance at its end', () => {
    const log: ProxyLog = {
      windows: [window],
      requests: [
        request(0, OPENS - 1),
        request(1, OPENS + 21, ack),
        request(2, OPENS + 1002),
        request(3, OPENS + 1994),
        request(4, OPENS + 1996),
        request(5, OPENS + 2500),
        request(6, OPENS + 500, { key: 'key#2' }),
      ],
    };
    expect(indexes(requestsInsideWindows(log))).toEqual([1, 2, 3]);
    expect(violationsByCaller(requestsInsideWindows(log))).toEqual({
      'poller: GET recentPunishments': 2,
      'outbox: POST acknowledgePunishment': 1,
    });
  });

  it('forgives an unrelated request on another connection arriving within the in-flight tolerance, and nothing else', () => {
    const log: ProxyLog = {
      windows: [{ ...window, requestIndex: 0 }],
      requests: [
        request(0, OPENS - 1, creation),
        request(1, OPENS + 3, ack),
        request(2, OPENS + 4, { ...ack, connection: 100 }),
        request(3, OPENS + 5, { ...creation, connection: 7 }),
        request(4, OPENS + 6, { ...creation, body: '{"reason":"y"}', idempotencyKey: 'k' }),
      ],
    };
    log.requests[0]!.idempotencyKey = 'k';
    expect(indexes(requestsCrossingWindows(log))).toEqual([1]);
    // Same connection as the 429, a repeat of its body, a repeat of its Idempotency-Key.
    expect(indexes(requestsInsideWindows(log))).toEqual([2, 3, 4]);
  });

  it('never counts the request whose own answer was the 429', () => {
    expect(requestsInsideWindows({ windows: [window], requests: [request(0, OPENS + 100)] })).toEqual([]);
  });
});

describe('seeded deck plan', () => {
  const deal = (seed: number, count: number, endpoint = 'recentPunishments') => {
    const plan = seededDeckPlan({ seed });
    return Array.from({ length: count }, (_, index) => plan({ index, method: 'GET', path: '/', endpoint }));
  };

  it('replays from its seed, and deals every fault of the deck once per round', () => {
    expect(deal(7, 56)).toEqual(deal(7, 56));
    expect(deal(7, 56)).not.toEqual(deal(8, 56));
    const round = deal(7, CONTRACT_FAULT_DECK.length);
    const dealt = round.map(faultLabel);
    for (const label of INJECTED_FAULT_LABELS) expect(dealt).toContain(label);
    for (const fault of round) {
      if (fault.kind === 'rate-limit') expect([1, 2, 3]).toContain(fault.waitSeconds);
    }
  });

  it('deals creations from their own deck: a lost answer in every round of it', () => {
    const round = deal(7, CREATION_FAULT_DECK.length, 'createPunishmentDynamic');
    expect(round.filter((fault) => fault.kind === 'drop-after')).toHaveLength(1);
  });
});
