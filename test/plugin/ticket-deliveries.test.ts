import { describe, expect, it } from 'vitest';
import { parseTicketWriteKey, replyKey, reportKey, TicketDeliveries } from '../../plugin/players/ticket-deliveries.js';
import type { Player } from '../../src/runtime/plugin-api.js';

const STEVE = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

function player(online = true) {
  const seen: string[] = [];
  const steve = {
    uuid: STEVE,
    isOnline: () => online,
    sendMessage: (line: string) => seen.push(line),
  } as unknown as Player;
  return { steve, seen };
}

const messages = () => ({
  render: (key: string, placeholders?: Record<string, string | number>) =>
    `${key} ${JSON.stringify(placeholders ?? {})}`,
});

describe('ticket write keys', () => {
  it('name the player and a reply its ticket, whatever the ticket id holds', () => {
    expect(parseTicketWriteKey(reportKey(STEVE.toUpperCase(), 'n-1'))).toEqual({ kind: 'report', playerUuid: STEVE });
    expect(parseTicketWriteKey(replyKey(STEVE, 'n-2', 'a:b/"c"'))).toEqual({
      kind: 'reply',
      playerUuid: STEVE,
      ticketId: 'a:b/"c"',
    });
    expect(replyKey(STEVE, 'n-2', 'a:b/"c"')).toMatch(/^[\x21\x23-\x5b\x5d-\x7e]+$/);
    for (const other of ['ack:p-1', 'report:x', 'reply:x:n', 'reply:x:n:%E0%A4%A', 'login:x:2026-01-01']) {
      expect(parseTicketWriteKey(other)).toBeUndefined();
    }
  });
});

describe('TicketDeliveries', () => {
  it('tells an online player a queued report was delivered, with its ticket id', () => {
    const { steve, seen } = player();
    const deliveries = new TicketDeliveries({ byUuid: () => steve }, messages);
    const ticketId = 'tk-1';
    deliveries.onSent({
      id: 1,
      operation: 'createTicket',
      idempotencyKey: reportKey(STEVE, 'n'),
      response: { ticketId },
    });
    deliveries.onSent({ id: 2, operation: 'createTicket', idempotencyKey: reportKey(STEVE, 'm'), response: undefined });
    expect(seen).toEqual(['commands.report.delivered {"id":"tk-1"}', 'commands.report.delivered-without-id {}']);
  });

  it('tells nobody about a write sent at once, another operation, or a player who left', async () => {
    const online = player();
    const deliveries = new TicketDeliveries({ byUuid: () => online.steve }, messages);
    const key = reportKey(STEVE, 'n');
    await deliveries.whileSending(key, async () => {
      deliveries.onSent({ id: 1, operation: 'createTicket', idempotencyKey: key, response: { ticketId: 'tk-1' } });
    });
    deliveries.onSent({ id: 2, operation: 'registerPlayer', idempotencyKey: key, response: undefined });
    expect(online.seen).toEqual([]);

    const offline = player(false);
    const later = new TicketDeliveries({ byUuid: () => offline.steve }, messages);
    later.onSent({ id: 3, operation: 'createTicket', idempotencyKey: key, response: { ticketId: 'tk-1' } });
    const gone = new TicketDeliveries({ byUuid: () => undefined }, messages);
    gone.onSent({ id: 4, operation: 'createTicket', idempotencyKey: key, response: { ticketId: 'tk-1' } });
    expect(offline.seen).toEqual([]);
  });
});
