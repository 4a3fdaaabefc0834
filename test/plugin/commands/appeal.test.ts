import { afterEach, describe, expect, it } from 'vitest';
import { appealCommand } from '../../../plugin/commands/appeal.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import type { AppealCodeBody, AppealCodeResponse } from '../../../src/contract/appeal-code-schemas.js';
import type { Punishment } from '../../../src/contract/schemas.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

const steve = () => fakeSender({ kind: 'player', name: 'Steve', uuid: STEVE.uuid, permissions: ['bailiff.appeal'] });

function punishment(overrides: Partial<Punishment>): Punishment {
  return {
    id: 'm-1',
    targetUuid: STEVE.uuid,
    targetName: 'Steve',
    issuerName: 'Mod',
    typeOrdinal: 6,
    reason: 'spam',
    duration: -1,
    createdAt: new Date(NOW - 60_000).toISOString(),
    status: 'active',
    started: new Date(NOW - 60_000).toISOString(),
    ...overrides,
  };
}

/** Deps whose service answers the appeal code route with `answer`, on a clock the test moves. */
function withService(answer: ModerationApi['appealCode']) {
  const clock = { nowMs: NOW, now: () => clock.nowMs };
  deps = testDeps({ api: { appealCode: answer }, clock });
  return clock;
}

const issued = (code: string) => async (body: AppealCodeBody) =>
  ({
    success: true,
    punishmentId: body.punishmentId,
    outcome: 'issued',
    code,
    expiresAt: new Date(NOW + 86_400_000).toISOString(),
  }) satisfies AppealCodeResponse;

async function appeal(args: string[] = [], sender = steve()) {
  await appealCommand(deps).execute({ sender, label: 'appeal', args });
  return sender;
}

describe('/appeal', () => {
  it('gives a muted player their code for each running mute, privately, and shows it again without asking', async () => {
    withService(issued('7KQ2M-XW9DC'));
    deps.applyCreated(punishment({}), true);
    const told = await appeal();
    expect(plain(told.messages)).toEqual([
      'Appeal code for Chat Abuse m-1: 7KQ2M-XW9DC. Use it once, before 2026-11-23 10:00 UTC, with your player name. Appeal at https://example.com/appeal',
    ]);
    expect(deps.client.calls).toEqual([
      {
        method: 'appealCode',
        args: [{ punishmentId: 'm-1', playerUuid: STEVE.uuid, playerName: 'Steve' }, { lane: 'player' }],
      },
    ]);
    const again = await appeal();
    expect(again.messages).toEqual(told.messages);
    expect(deps.client.calls).toHaveLength(1);
  });

  it('asks for one punishment by id (a warning), and says why there is no code', async () => {
    const answers: AppealCodeResponse[] = [
      { success: true, punishmentId: 'w-1', outcome: 'unappealable' },
      { success: true, punishmentId: 'w-2', outcome: 'cooldown', appealableAt: '2026-11-29T10:00:00.000Z' },
      { success: true, punishmentId: 'w-3', outcome: 'open-appeal' },
      { success: true, punishmentId: 'x', outcome: 'not-found' },
    ];
    const clock = withService(async () => answers.shift()!);
    deps.applyCreated(punishment({ id: 'w-1', status: 'warning' }), true);
    const lines = [];
    for (const id of ['w-1', 'w-2', 'w-3', 'x']) {
      lines.push(...plain((await appeal([id])).messages));
      clock.nowMs += 60_000;
    }
    expect(lines).toEqual([
      'Warning w-1 cannot be appealed.',
      'Your appeal of w-2 was denied. You can appeal again after 2026-11-29 10:00 UTC.',
      'An appeal of w-3 is already open: read the answer on your private appeal page.',
      'You have no punishment x that can be appealed.',
    ]);
  });

  it('holds a player back for appeals.cooldownMs after asking; a failed question costs nothing', async () => {
    let isDown = true;
    const clock = withService(async (body) => {
      if (isDown) throw apiError('network', 'appealCode');
      return issued('AAAAA-BBBBB')(body);
    });
    const failed = await appeal(['w-9']);
    expect(plain(failed.messages)).toEqual([
      'The moderation service cannot be reached right now (appeal). Try again later.',
    ]);
    isDown = false;
    expect(plain((await appeal(['w-9'])).messages)[0]).toContain('AAAAA-BBBBB');
    expect(plain((await appeal(['w-8'])).messages)).toEqual([
      'You asked for an appeal code recently: you can ask again in 60 s.',
    ]);
    clock.nowMs += 60_000;
    expect(plain((await appeal(['w-8'])).messages)[0]).toContain('AAAAA-BBBBB');
    expect(deps.client.calls).toHaveLength(3);
  });

  it('tells a player without a running mute how to appeal something else, and the console that it is for players', async () => {
    withService(issued('unused'));
    expect(plain((await appeal()).messages)).toEqual([
      'You have no running mute here. To appeal a warning or another punishment of yours, type /appeal <id> with the id from its notice.',
    ]);
    expect(plain((await appeal([], fakeSender())).messages)).toEqual([
      'Only players appeal, with their own punishments.',
    ]);
    await expect(appeal(['a', 'b'])).rejects.toBeInstanceOf(CommandUsageError);
    expect(deps.client.calls).toHaveLength(0);
  });

  it('a service without appeal codes (404) is said so', async () => {
    withService(async () => {
      throw apiError('http', 'appealCode', { status: 404 });
    });
    expect(plain((await appeal(['w-1'])).messages)).toEqual([
      "This server's moderation service does not give appeal codes.",
    ]);
  });
});
