import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { OutboxWriter } from '../../plugin/acks/acknowledgements.js';
import { createMessages } from '../../plugin/messages/messages.js';
import { messagesSchema } from '../../plugin/messages/schema.js';
import { NOTICE_POLL_PAGE_SIZE, NoticePoll } from '../../plugin/reports/notice-poll.js';
import { offerNotice, type TextNotice } from '../../plugin/reports/online-notices.js';
import type { PendingNotice } from '../../src/contract/staff-ticket-schemas.js';
import type { OutboxCall } from '../../src/outbox/types.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import { fakeApi } from './commands/helpers/fake-api.js';

const messages = createMessages(messagesSchema.parse(parse(readFileSync('config/messages.yml', 'utf8'))));
const START = Date.parse('2026-11-22T10:00:00.000Z');
const INTERVAL = 30_000;
const STEVE = '069a79f4-44e9-4726-a5be-fca90e38aaf5';
const ALEX = '853c80ef-3c37-49fd-aa49-938b674adae6';

function player(name: string, uuid: string): Player & { seen: string[] } {
  const seen: string[] = [];
  return {
    kind: 'player',
    name,
    uuid,
    seen,
    sendMessage: (line) => {
      seen.push(line);
    },
    hasPermission: () => false,
    isOnline: () => true,
    kick: () => {},
  };
}

/** The outbox's promise that matters here: one row per idempotency key. */
function keyedOutbox(): OutboxWriter & { calls: OutboxCall[] } {
  const keys = new Set<string>();
  const calls: OutboxCall[] = [];
  return {
    calls,
    enqueue(call, { idempotencyKey }) {
      const inserted = !keys.has(idempotencyKey);
      keys.add(idempotencyKey);
      if (inserted) calls.push(call);
      return { id: keys.size, inserted };
    },
  };
}

function notice(id: string, playerUuid: string, createdAtMs: number): PendingNotice {
  return {
    id,
    playerUuid,
    message: `Staff replied to your ticket t-1: reply ${id} &cred`,
    type: 'ticket-reply',
    createdAt: new Date(createdAtMs).toISOString(),
  };
}

describe('offerNotice', () => {
  it('shows a notice once to its player online here, as text, and queues its acknowledgement', () => {
    const steve = player('Steve', STEVE);
    const outbox = keyedOutbox();
    const deps = {
      byUuid: (uuid: string) => (uuid.toLowerCase() === STEVE ? steve : undefined),
      outbox,
      messages: () => messages,
      clock: { now: () => START },
    };
    const reply: TextNotice = { id: 'r-1', playerUuid: STEVE.toUpperCase(), message: 'Staff replied: &cok' };
    expect(offerNotice(deps, reply)).toBe(steve);
    expect(offerNotice(deps, reply)).toBeUndefined();
    expect(steve.seen).toEqual([expect.stringContaining('Staff replied: &&cok')]);
    expect(outbox.calls).toEqual([
      {
        operation: 'acknowledgeNotifications',
        payload: {
          playerUuid: STEVE.toUpperCase(),
          notificationIds: ['r-1'],
          acknowledgedAt: new Date(START).toISOString(),
        },
      },
    ]);
    expect(offerNotice(deps, { id: 'r-2', playerUuid: ALEX, message: 'x' })).toBeUndefined();
    expect(outbox.calls).toHaveLength(1);
  });
});

describe('the poll of reply notices', () => {
  function harness(pending: () => PendingNotice[]) {
    let now = START;
    let online: Player[] = [];
    const offered: TextNotice[] = [];
    const client = fakeApi({
      pendingNotices: async () => ({ success: true, notifications: pending() }),
    });
    const poll = new NoticePoll({
      client,
      online: () => online,
      offer: (each) => offered.push(each),
      pollIntervalMs: () => INTERVAL,
      clock: { now: () => now },
      logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    });
    return {
      poll,
      client,
      offered,
      setOnline: (players: Player[]) => {
        online = players;
      },
      advance: (ms: number) => {
        now += ms;
      },
      queries: () => client.calls.map((call) => call.args[0]),
    };
  }

  it('asks only while someone is online, from a minute before the start, then from the newest notice seen', async () => {
    let pending = [notice('r-1', STEVE, START + 5000), notice('r-2', ALEX, START + 7000)];
    const h = harness(() => pending);
    await h.poll.tick();
    expect(h.queries()).toEqual([]);

    h.setOnline([player('Steve', STEVE)]);
    await h.poll.tick();
    expect(h.queries()).toEqual([{ since: new Date(START - 60_000).toISOString(), limit: NOTICE_POLL_PAGE_SIZE }]);
    expect(h.offered.map((each) => each.id)).toEqual(['r-1', 'r-2']);

    h.advance(INTERVAL - 1);
    await h.poll.tick();
    expect(h.queries()).toHaveLength(1);
    pending = [notice('r-3', STEVE, START + 40_000)];
    h.advance(1);
    await h.poll.tick();
    expect(h.queries()[1]).toEqual({ since: new Date(START + 7000).toISOString(), limit: NOTICE_POLL_PAGE_SIZE });
    expect(h.offered.map((each) => each.id)).toEqual(['r-1', 'r-2', 'r-3']);
  });

  it('never asks while the service lacks the route or the gate is closed', async () => {
    const h = harness(() => []);
    h.setOnline([player('Steve', STEVE)]);
    h.client.extensions.markMissing('pendingNotices', START);
    await h.poll.tick();
    h.client.extensions.markOffered('pendingNotices');
    h.client.gate.rateLimited('pendingNotices', START, 10_000);
    await h.poll.tick();
    expect(h.queries()).toEqual([]);
    h.advance(10_000);
    await h.poll.tick();
    expect(h.queries()).toHaveLength(1);
  });
});
