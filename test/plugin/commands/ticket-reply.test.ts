import { afterEach, describe, expect, it } from 'vitest';
import { ticketCommand } from '../../../plugin/commands/ticket.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { NOW, plain, STEVE, type TestDeps, type TestDepsOptions, testDeps } from './helpers/command-deps.js';
import { apiError } from './helpers/fake-api.js';
import { type FakeSender, fakeSender } from './helpers/fake-sender.js';

const REPLIED = { status: 200, success: true, replyId: 'r-1', message: 'reply r-1 added to ticket tk-1' };

let deps: TestDeps;
afterEach(() => deps?.db.close());

const asSteve = () => fakeSender({ kind: 'player', name: 'Steve', uuid: STEVE.uuid, permissions: ['bailiff.tickets'] });

function withService(replyToTicket: () => Promise<unknown>, options: TestDepsOptions = {}): TestDeps {
  return testDeps({ ...options, api: { replyToTicket: replyToTicket as never } });
}

async function ticket(args: string[], sender: FakeSender = asSteve()): Promise<FakeSender> {
  await ticketCommand(deps).execute({ sender, label: 'ticket', args });
  return sender;
}

describe('/ticket <id> reply <text>', () => {
  it("adds the player's reply to their ticket with a fixed Idempotency-Key, and says so once", async () => {
    const steve = asSteve();
    deps = withService(async () => REPLIED, { online: [steve as never] });
    await ticket(['tk-1', 'REPLY', 'any', 'news?'], steve);
    expect(plain(steve.messages)).toEqual(['Your reply was added to ticket #tk-1.']);
    expect(deps.client.calls).toEqual([
      {
        method: 'replyToTicket',
        args: [
          { id: 'tk-1', body: { playerUuid: STEVE.uuid, playerName: 'Steve', message: 'any news?' } },
          { idempotencyKey: `reply:${STEVE.uuid}:id-1:tk-1` },
        ],
      },
    ]);
  });

  it('refuses a reply longer than the service takes, naming the limit, and sends nothing (issue 32, item 10)', async () => {
    deps = withService(async () => REPLIED);
    const sender = await ticket(['tk-1', 'reply', 'x'.repeat(10_000)]);
    expect(plain(sender.messages)).toEqual([
      'Not sent: your reply has 10000 characters, and a reply may hold at most 4000. Shorten it and send it again.',
    ]);
    expect(deps.client.calls).toEqual([]);
    expect(deps.outboxRows()).toEqual([]);
  });

  it('sends a reply of exactly the limit whole', async () => {
    deps = withService(async () => REPLIED);
    const words = [...Array.from({ length: 799 }, () => 'abcd'), 'abcde'];
    const sender = await ticket(['tk-1', 'reply', ...words]);
    expect(plain(sender.messages)).toEqual(['Your reply was added to ticket #tk-1.']);
    const sent = (deps.client.calls[0]!.args[0] as { body: { message: string } }).body.message;
    expect(sent).toBe(words.join(' '));
    expect(sent).toHaveLength(4000);
  });

  it("holds a player's replies to their call cooldown", async () => {
    deps = withService(async () => REPLIED);
    await ticket(['tk-1', 'reply', 'first']);
    const second = await ticket(['tk-1', 'reply', 'second']);
    expect(plain(second.messages)).toEqual(['Slow down: you can ask again in 3 s.']);
    expect(deps.client.calls).toHaveLength(1);
  });

  it("answers a 404 (no such ticket, or someone else's) as a ticket not found", async () => {
    deps = withService(() => Promise.reject(apiError('http', 'replyToTicket', { status: 404 })));
    const sender = await ticket(['tk-9', 'reply', 'hello']);
    expect(plain(sender.messages)).toEqual(['No ticket tk-9 was found among the tickets you may read.']);
    expect(deps.client.extensions.state('replyToTicket')).toEqual({ state: 'unknown' });
  });

  it('queues a reply the service cannot take now, in order per ticket, and tells the player when it is added', async () => {
    const steve = asSteve();
    deps = withService(() => Promise.reject(apiError('timeout', 'replyToTicket')), { online: [steve as never] });
    await ticket(['t/1', 'reply', 'still', 'waiting'], steve);
    expect(plain(steve.messages)).toEqual([
      'The moderation service cannot take your reply right now: it is queued and will be added to ticket #t/1 when the service answers.',
    ]);
    const [row] = deps.outboxRows();
    expect(row).toMatchObject({
      operation: 'replyToTicket',
      payload: { id: 't/1', body: { message: 'still waiting' } },
      idempotencyKey: `reply:${STEVE.uuid}:id-1:t%2F1`,
      orderingKey: 'ticket:t/1',
    });
    deps.deliveries.onSent({
      id: 1,
      operation: 'replyToTicket',
      idempotencyKey: row!.idempotencyKey,
      response: REPLIED,
    });
    expect(plain(steve.messages)[1]).toBe('Your queued reply was added to ticket #t/1.');
  });

  it('is for players, needs text, and is not offered by a service without ticket creation', async () => {
    deps = withService(async () => REPLIED);
    const console = await ticket(['tk-1', 'reply', 'hi'], fakeSender({ kind: 'console' }));
    expect(plain(console.messages)).toEqual(['Only players reply to their tickets in game; staff reply in the panel.']);
    await expect(ticket(['tk-1', 'reply'])).rejects.toBeInstanceOf(CommandUsageError);
    await expect(ticket(['tk-1', 'close', 'now'])).rejects.toBeInstanceOf(CommandUsageError);
    const blank = await ticket(['tk-1', 'reply', '\u0007']);
    expect(plain(blank.messages)).toEqual(['Write something after reply: /ticket <id> reply <text>']);
    deps.client.extensions.markMissing('createTicket', NOW);
    const missing = await ticket(['tk-1', 'reply', 'hi']);
    expect(plain(missing.messages)).toEqual(["This server's moderation service does not take replies from the game."]);
    expect(deps.client.calls).toEqual([]);
  });

  it('offers reply as the second word', () => {
    deps = withService(async () => REPLIED);
    const complete = (args: string[]) =>
      ticketCommand(deps).tabComplete?.({ sender: asSteve(), label: 'ticket', args });
    expect(complete(['tk-1', 'r'])).toEqual(['reply']);
    expect(complete(['tk-1'])).toEqual([]);
  });
});

describe('/ticket <id> of a chat report', () => {
  it('shows the chat lines it carries, as text, with their times of day; an answer without them shows none', async () => {
    const chatReport = {
      id: 'tk-2',
      type: 'chat',
      subject: 'Chat report: Alex',
      status: 'Open',
      priority: 'normal',
      creatorUuid: STEVE.uuid,
      creatorName: 'Steve',
      createdAt: '2026-11-22T10:00:00.000Z',
      updatedAt: '2026-11-22T10:00:00.000Z',
      description: 'spam',
      reportedPlayerUuid: null,
      reportedPlayerName: 'Alex',
      tags: [],
      replies: [],
      chatMessages: [{ playerName: 'Alex', message: '&4buy gold', sentAt: '2026-11-22T09:59:30.250Z' }],
    };
    let answer: Record<string, unknown> = chatReport;
    deps = testDeps({ api: { getTicket: (async () => ({ ticket: answer })) as never } });
    const shown = await ticket(['tk-2']);
    expect(shown.messages.slice(3, 5)).toEqual(['&7Chat lines attached (1, UTC):', '&709:59:30 &fAlex&7: &&4buy gold']);
    answer = { ...chatReport, id: 'tk-3', chatMessages: 'not lines' };
    const without = await ticket(['tk-3'], fakeSender({ kind: 'console' }));
    expect(plain(without.messages).slice(3)).toEqual(['No replies yet.']);
  });
});
