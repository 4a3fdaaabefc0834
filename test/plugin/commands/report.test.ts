import { afterEach, describe, expect, it } from 'vitest';
import { reportCommand } from '../../../plugin/commands/report.js';
import type { ReportKind } from '../../../plugin/players/report-cooldowns.js';
import type { CreateTicketBody } from '../../../src/contract/schemas.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { FakeTime } from '../../support/fake-time.js';
import { ALEX, NOW, plain, STEVE, type TestDeps, type TestDepsOptions, testDeps } from './helpers/command-deps.js';
import { apiError } from './helpers/fake-api.js';
import { type FakeSender, fakeSender } from './helpers/fake-sender.js';

const CREATED = { status: 200, success: true, ticketId: 'tk-1', message: 'ticket tk-1 created' };

let deps: TestDeps;
afterEach(() => deps?.db.close());

const asSteve = () => fakeSender({ kind: 'player', name: 'Steve', uuid: STEVE.uuid, permissions: ['bailiff.report'] });

function withService(createTicket: () => Promise<unknown>, options: TestDepsOptions = {}): TestDeps {
  return testDeps({ ...options, api: { createTicket: createTicket as never, ...options.api } });
}

async function run(kind: ReportKind, args: string[], sender: FakeSender = asSteve()): Promise<FakeSender> {
  await reportCommand(deps, kind).execute({ sender, label: kind === 'chat' ? 'chatreport' : 'report', args });
  return sender;
}

const sentBodies = () =>
  deps.client.calls.filter((call) => call.method === 'createTicket').map((call) => call.args[0] as CreateTicketBody);

describe('/report and /chatreport', () => {
  it("opens a chat report holding the reported player's lines with their times, and tells the ticket id once", async () => {
    const steve = asSteve();
    deps = withService(async () => CREATED, { online: [steve as never] });
    deps.recentChat.record(ALEX, 'buy gold at shop.example', NOW - 30_000);
    deps.recentChat.record(STEVE, 'stop it', NOW - 20_000);
    deps.recentChat.record(ALEX, '&4red\u0007 text', NOW - 10_000);

    await run('chat', ['alex', 'advertising', 'again'], steve);

    expect(plain(steve.messages)).toEqual([
      'Thank you: your report on Alex is ticket #tk-1. Follow it with /ticket tk-1.',
    ]);
    expect(deps.client.calls).toEqual([
      {
        method: 'createTicket',
        args: [
          {
            creatorUuid: STEVE.uuid,
            creatorName: 'Steve',
            type: 'chat',
            subject: 'Chat report: Alex',
            description: 'advertising again',
            reportedPlayerUuid: ALEX.uuid,
            reportedPlayerName: 'Alex',
            chatMessages: [
              { playerName: 'Alex', message: 'buy gold at shop.example', sentAt: '2026-11-22T09:59:30.000Z' },
              // Control characters are dropped (the contract refuses them); colour codes stay text.
              { playerName: 'Alex', message: '&4red text', sentAt: '2026-11-22T09:59:50.000Z' },
            ],
          },
          { idempotencyKey: `report:${STEVE.uuid}:id-1` },
        ],
      },
    ]);
    // Staff on this server are alerted at once, not at the next poll.
    expect(deps.reportsCreated).toEqual([
      { id: 'tk-1', reporterName: 'Steve', reportedName: 'Alex', reason: 'advertising again' },
    ]);
  });

  it('opens a player report without chat lines, and a chat report without a reason gets a description', async () => {
    deps = withService(async () => CREATED);
    await run('player', ['Alex', 'griefed', 'my', 'house']);
    deps.recentChat.record(ALEX, 'hi', NOW);
    await run('chat', ['Alex']);
    expect(
      sentBodies().map(({ type, subject, description, chatMessages }) => ({
        type,
        subject,
        description,
        chatMessages,
      })),
    ).toEqual([
      { type: 'player', subject: 'Player report: Alex', description: 'griefed my house', chatMessages: undefined },
      {
        type: 'chat',
        subject: 'Chat report: Alex',
        description: 'their chat (lines attached)',
        chatMessages: [{ playerName: 'Alex', message: 'hi', sentAt: new Date(NOW).toISOString() }],
      },
    ]);
  });

  it('refuses a self-report, by name or by UUID, and sends nothing', async () => {
    deps = withService(async () => CREATED);
    const byName = await run('player', ['STEVE', 'me']);
    const byUuid = await run('player', [STEVE.uuid, 'me']);
    expect(plain([...byName.messages, ...byUuid.messages])).toEqual([
      'You cannot report yourself.',
      'You cannot report yourself.',
    ]);
    expect(deps.client.calls).toEqual([]);
  });

  it('refuses a player neither known here nor at the service, and reports one the service knows', async () => {
    const stranger = { uuid: '00000000-0000-4000-8000-0000000000aa', name: 'Stranger' };
    deps = withService(async () => CREATED, {
      api: {
        lookupPlayer: (async ({ name }: { name: string }) => ({
          player: name === 'Stranger' ? { ...stranger, firstSeen: null, lastSeen: null } : null,
        })) as never,
      },
    });
    const unknown = await run('player', ['Nobody', 'cheating']);
    expect(plain(unknown.messages)).toEqual(['No player Nobody is known on this server or at the moderation service.']);
    await run('player', ['Stranger', 'cheating']);
    expect(sentBodies().map((body) => [body.reportedPlayerUuid, body.reportedPlayerName])).toEqual([
      [stranger.uuid, 'Stranger'],
    ]);
  });

  it('takes a name with spaces (a Bedrock gamertag) written in double quotes; an unclosed quote is a usage error', async () => {
    const gamertag = { uuid: '00000000-0000-4000-8000-0000000000bb', name: 'Cool Guy' };
    deps = withService(async () => CREATED, {
      api: {
        lookupPlayer: (async ({ name }: { name: string }) => ({
          player: name === 'Cool Guy' ? { ...gamertag, firstSeen: null, lastSeen: null } : null,
        })) as never,
      },
    });
    const unquoted = await run('player', ['Cool', 'Guy', 'griefed']);
    expect(plain(unquoted.messages)).toEqual(['No player Cool is known on this server or at the moderation service.']);
    await expect(run('player', ['"Cool', 'Guy', 'griefed'])).rejects.toBeInstanceOf(CommandUsageError);
    await expect(run('player', ['"Cool', 'Guy"'])).rejects.toBeInstanceOf(CommandUsageError);
    const quoted = await run('player', ['"Cool', 'Guy"', 'griefed', 'the', 'spawn']);
    expect(plain(quoted.messages)).toEqual([
      'Thank you: your report on Cool Guy is ticket #tk-1. Follow it with /ticket tk-1.',
    ]);
    expect(sentBodies().map((body) => [body.reportedPlayerUuid, body.reportedPlayerName, body.description])).toEqual([
      [gamertag.uuid, 'Cool Guy', 'griefed the spawn'],
    ]);
  });

  it('holds a player back per kind of report after one was made, not after a refused one', async () => {
    const time = new FakeTime(NOW);
    deps = withService(async () => CREATED, { clock: time });
    await run('player', ['Nobody', 'x']); // refused: no cooldown
    await run('player', ['Alex', 'first']);
    time.jump(20_000);
    const held = await run('player', ['Alex', 'second']);
    expect(plain(held.messages)).toEqual(['You reported recently: you can make another such report in 40 s.']);
    deps.recentChat.record(ALEX, 'rude words', time.now());
    const chat = await run('chat', ['Alex']);
    expect(plain(chat.messages)[0]).toContain('is ticket #tk-1');
    time.jump(40_000);
    await run('player', ['Alex', 'third']);
    expect(sentBodies().map((body) => body.description)).toEqual(['first', 'their chat (lines attached)', 'third']);
  });

  it('bounds the reason, needs a reason for /report, and needs lines for /chatreport', async () => {
    deps = withService(async () => CREATED);
    deps.reportSettings.maxReasonLength = 10;
    const long = await run('player', ['Alex', 'far', 'too', 'long', 'a', 'reason']);
    expect(plain(long.messages)).toEqual(['Your reason is 21 characters long; keep it to 10.']);
    await expect(run('player', ['Alex'])).rejects.toBeInstanceOf(CommandUsageError);
    await expect(run('player', ['Alex', '\u0007'])).rejects.toBeInstanceOf(CommandUsageError);
    await expect(run('chat', [])).rejects.toBeInstanceOf(CommandUsageError);
    const quiet = await run('chat', ['Alex', 'spam']);
    expect(plain(quiet.messages)).toEqual([
      'Alex has said nothing on this server lately. Use /report Alex <reason> instead.',
    ]);
    expect(deps.client.calls).toEqual([]);
  });

  it('is for players only', async () => {
    deps = withService(async () => CREATED);
    const console = await run('player', ['Alex', 'x'], fakeSender({ kind: 'console' }));
    expect(plain(console.messages)).toEqual(['Only players can report; staff act with /ban, /mute and /kick.']);
  });

  it('queues a report the service cannot take now, and tells the reporter its ticket id once it is delivered', async () => {
    const steve = asSteve();
    deps = withService(() => Promise.reject(apiError('network', 'createTicket')), { online: [steve as never] });
    await run('player', ['Alex', 'griefing'], steve);
    expect(plain(steve.messages)).toEqual([
      'The moderation service cannot take your report right now: your report on Alex is queued and will be sent when the service answers.',
    ]);
    const [row] = deps.outboxRows();
    expect(row).toMatchObject({ operation: 'createTicket', idempotencyKey: `report:${STEVE.uuid}:id-1` });

    deps.deliveries.onSent({
      id: 1,
      operation: 'createTicket',
      idempotencyKey: row!.idempotencyKey,
      response: CREATED,
    });
    expect(plain(steve.messages)[1]).toBe(
      'Your queued report was delivered as ticket #tk-1. Follow it with /ticket tk-1.',
    );
    const held = await run('player', ['Alex', 'again'], steve);
    expect(plain(held.messages).at(-1)).toContain('you can make another such report in 60 s');
  });

  it('says the service does not take reports after its 404, and then asks it nothing', async () => {
    deps = withService(() => Promise.reject(apiError('http', 'createTicket', { status: 404 })));
    const first = await run('player', ['Alex', 'griefing']);
    expect(plain(first.messages)).toEqual(["This server's moderation service does not take reports."]);
    expect(deps.outboxRows()).toEqual([]);
    deps.client.extensions.markMissing('createTicket', NOW);
    const second = await run('player', ['Alex', 'griefing']);
    expect(plain(second.messages)).toEqual(["This server's moderation service does not take reports."]);
    expect(sentBodies()).toHaveLength(1);
  });

  it('holds a burst back while the first report waits for the service lookup', async () => {
    let found!: (value: unknown) => void;
    const stranger = {
      uuid: '00000000-0000-4000-8000-0000000000aa',
      name: 'Stranger',
      firstSeen: null,
      lastSeen: null,
    };
    deps = withService(async () => CREATED, {
      api: { lookupPlayer: (() => new Promise((resolve) => (found = resolve))) as never },
    });
    const first = run('player', ['Stranger', 'one']);
    const second = await run('player', ['Stranger', 'two']);
    expect(plain(second.messages)[0]).toContain('you can make another such report in 60 s');
    found({ player: stranger });
    expect(plain((await first).messages)[0]).toContain('is ticket #tk-1');
  });

  it('lets only the first of reports typed in a burst through, and a refused one holds nothing back', async () => {
    let answer!: (value: unknown) => void;
    deps = withService(() => new Promise((resolve) => (answer = resolve)));
    const first = run('player', ['Alex', 'one']);
    const second = await run('player', ['Alex', 'two']);
    expect(plain(second.messages)[0]).toContain('you can make another such report in 60 s');
    answer(CREATED);
    expect(plain((await first).messages)[0]).toContain('is ticket #tk-1');
    expect(sentBodies().map((body) => body.description)).toEqual(['one']);
  });

  it('tells another refusal in one line, and lets the player report again at once', async () => {
    deps = withService(() =>
      Promise.reject(
        apiError('http', 'createTicket', { status: 400, serviceMessage: 'description: must not be blank' }),
      ),
    );
    const sender = await run('player', ['Alex', 'griefing']);
    expect(plain(sender.messages)).toEqual([
      'The moderation service refused (report, 400): description: must not be blank',
    ]);
  });
});
