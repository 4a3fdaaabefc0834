import { afterEach, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { OutboxCall } from '../../src/outbox/index.js';
import type { RunningService } from '../../src/service/index.js';
import { settle } from '../support/fake-time.js';
import { apiErrors } from './helpers/fake-client.js';
import { ack, createHarness, PLAYER } from './helpers/outbox-harness.js';
import { API_KEY, playerUuid, seedWithBans, startService } from './helpers/service-fixture.js';

const TICKET = {
  creatorUuid: PLAYER,
  creatorName: 'Steve',
  type: 'player',
  subject: 'Player report: Alex',
  description: 'griefing',
} as const;
const report: OutboxCall = { operation: 'createTicket', payload: TICKET };
const reply: OutboxCall = {
  operation: 'replyToTicket',
  payload: { id: 't-1', body: { playerUuid: PLAYER, playerName: 'Steve', message: 'any news?' } },
};

describe('ticket writes in the outbox', () => {
  it('sends a ticket and a reply with their outbox keys as Idempotency-Key, an acknowledgement without', async () => {
    const { outbox, fake } = createHarness();
    fake.answer((call) =>
      call.operation === 'createTicket'
        ? { status: 200, success: true, ticketId: 't-1', message: 'ticket t-1 created' }
        : { status: 200, success: true, replyId: 'r-1', message: 'ok' },
    );
    outbox.enqueue(report, { idempotencyKey: 'report:one' });
    outbox.enqueue(reply, { idempotencyKey: 'reply:one' });
    outbox.enqueue(ack('p-1'), { idempotencyKey: 'ack:p-1' });
    outbox.start();
    await settle();
    const sent = Object.fromEntries(fake.calls.map((call) => [call.operation, call.args.slice(1)]));
    expect(sent).toEqual({
      createTicket: [{ idempotencyKey: 'report:one' }],
      replyToTicket: [{ idempotencyKey: 'reply:one' }],
      acknowledgePunishment: [],
    });
  });

  it("takes a 404 to a reply as a refusal of that ticket (dead), a 404 to a ticket as the route's absence (skipped)", async () => {
    const { outbox, fake, rows } = createHarness();
    fake.answer((call) => {
      throw call.operation === 'createTicket'
        ? apiErrors.http(404, 'no route POST /v1/minecraft/tickets', 'createTicket')
        : apiErrors.http(404, 'ticket t-1 not found', 'replyToTicket');
    });
    outbox.enqueue(reply, { idempotencyKey: 'reply:one' });
    outbox.enqueue(report, { idempotencyKey: 'report:one' });
    outbox.start();
    await settle();
    expect(rows().map(({ status, dead_reason }) => ({ status, dead_reason }))).toEqual([
      { status: 'dead', dead_reason: 'rejected by the service: 404 ticket t-1 not found' },
      { status: 'sent', dead_reason: null },
    ]);
    expect(outbox.stats()).toMatchObject({ dead: 1 });
  });
});

describe('ticket writes against the reference service', () => {
  let service: RunningService | undefined;
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });

  it('opens one ticket for one key however often it is sent, and a reply 404 leaves replies offered', async () => {
    service = await startService({ port: 0, seed: seedWithBans(1) });
    const api = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
    const body = { ...TICKET, creatorUuid: playerUuid(0), creatorName: 'player0' };
    const first = await api.createTicket(body, { idempotencyKey: 'report:same' });
    const again = await api.createTicket(body, { idempotencyKey: 'report:same' });
    const other = await api.createTicket(body, { idempotencyKey: 'report:other' });
    expect(again.ticketId).toBe(first.ticketId);
    expect(other.ticketId).not.toBe(first.ticketId);
    const { tickets } = await api.getPlayerTickets({ uuid: playerUuid(0) });
    expect(tickets.map((ticket) => ticket.id).sort()).toEqual([first.ticketId, other.ticketId].sort());

    const replyBody = { playerUuid: playerUuid(0), playerName: 'player0', message: 'any news?' };
    await api.replyToTicket({ id: first.ticketId, body: replyBody }, { idempotencyKey: 'reply:same' });
    await api.replyToTicket({ id: first.ticketId, body: replyBody }, { idempotencyKey: 'reply:same' });
    const { ticket } = await api.getTicket({ id: first.ticketId });
    expect(ticket.replies.map((entry) => entry.message)).toEqual(['any news?']);

    await expect(
      api.replyToTicket({ id: 'no-such-ticket', body: replyBody }, { idempotencyKey: 'reply:lost' }),
    ).rejects.toMatchObject({ kind: 'http', status: 404 });
    expect(api.extensions.state('replyToTicket')).toEqual({ state: 'offered' });
    expect(api.extensions.state('createTicket')).toEqual({ state: 'offered' });
  });
});
