import { describe, expect, it } from 'vitest';
import { CONTRACT_FAULT_DECK, seededDeckPlan } from './fault-plan.js';
import type { ProxiedRequestEntry, ProxyLog, RateLimitWindow } from './proxy-log.js';
import { requestsCrossingWindows, requestsInsideWindows, violationsByCaller } from './rate-limit-windows.js';

const OPENS = 1_000_000;

function request(
  index: number,
  arrivedAtMs: number,
  endpoint = 'recentPunishments',
  key = 'key#1',
): ProxiedRequestEntry {
  return {
    index,
    arrivedAtMs,
    method: 'GET',
    path: '/v1/minecraft/x',
    query: '',
    endpoint,
    key,
    body: '',
    upgrade: false,
    fault: { kind: 'pass' },
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

describe('requests inside 429 windows', () => {
  it('counts what arrived inside the window of its key; forgives only in-flight crossings and clock rounding', () => {
    const log: ProxyLog = {
      windows: [window],
      requests: [
        request(0, OPENS - 1),
        request(1, OPENS + 5),
        request(2, OPENS + 21),
        request(3, OPENS + 1002, 'acknowledgePunishment'),
        request(4, OPENS + 1994),
        request(5, OPENS + 1996),
        request(6, OPENS + 2500),
        request(7, OPENS + 500, 'recentPunishments', 'key#2'),
      ],
    };
    expect(requestsInsideWindows(log).map((found) => found.request.index)).toEqual([2, 3, 4]);
    expect(requestsCrossingWindows(log).map((found) => found.request.index)).toEqual([1]);
    expect(violationsByCaller(requestsInsideWindows(log))).toEqual({
      'poller: GET recentPunishments': 2,
      'outbox: GET acknowledgePunishment': 1,
    });
  });

  it('never counts the request whose own answer was the 429', () => {
    expect(requestsInsideWindows({ windows: [window], requests: [request(0, OPENS + 100)] })).toEqual([]);
  });
});

describe('seeded deck plan', () => {
  const deal = (seed: number, count: number) => {
    const plan = seededDeckPlan({ seed });
    return Array.from({ length: count }, (_, index) => plan({ index, method: 'GET', path: '/', endpoint: 'x' }));
  };

  it('replays from its seed, and deals every fault of the deck once per round', () => {
    expect(deal(7, 56)).toEqual(deal(7, 56));
    expect(deal(7, 56)).not.toEqual(deal(8, 56));
    const round = deal(7, CONTRACT_FAULT_DECK.length);
    const kinds = round.map((fault) => (fault.kind === 'rate-limit' ? `429 ${fault.channel}` : fault.kind));
    for (const kind of [
      '429 retry-after',
      '429 x-rate-limit',
      '429 body',
      'server-error',
      'drop-before',
      'drop-after',
    ]) {
      expect(kinds).toContain(kind);
    }
    for (const fault of round) {
      if (fault.kind === 'rate-limit') expect([1, 2, 3]).toContain(fault.waitSeconds);
    }
  });
});
