import { describe, expect, it } from 'vitest';
import { renderBanScreen } from '../../plugin/enforcement/ban-screen.js';
import { onPreLogin } from '../../plugin/enforcement/pre-login.js';
import { createMessages } from '../../plugin/messages/messages.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { ApiError } from '../../src/api/errors.js';
import type { CallOptions, ModerationApi } from '../../src/api/moderation-api.js';
import type { AppealCodeBody, AppealCodeResponse } from '../../src/contract/appeal-code-schemas.js';
import type { PreLoginEvent } from '../../src/runtime/plugin-api.js';
import { ALICE, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

const CODE = '7KQ2M-XW9DC';
const CODE_LINE = `&7Appeal code: &e${CODE}&7 (use it once, before 2026-01-02 00:00 UTC)`;
const LATER_LINE = '&7Join again in a minute to get your appeal code.';

function preLogin(uuid: string, name: string, ip?: string) {
  const event = {
    uuid,
    name,
    ip,
    denied: false,
    denyMessage: undefined as string | undefined,
    deny(message: string) {
      event.denied = true;
      event.denyMessage = message;
    },
  };
  return event satisfies PreLoginEvent;
}

type Answer = (body: AppealCodeBody) => Promise<AppealCodeResponse>;

/** A banned Alice, and a service whose appeal code route answers `answer` (every call recorded). */
function bannedAlice(answer: Answer, config: Record<string, unknown> = {}) {
  const calls: Array<{ body: AppealCodeBody; options: CallOptions | undefined }> = [];
  let extensions: { markMissing(name: 'appealCode', now: number): void } | undefined;
  const h = enforcementHarness([], { appealUrl: 'https://appeal.example', ...config }, (shared) => {
    extensions = shared.extensions;
    return {
      appealCode: (body: AppealCodeBody, options?: CallOptions) => {
        calls.push({ body, options });
        return answer(body);
      },
    } as unknown as ModerationApi;
  });
  applyPunishment(h.context, servicePunishment({ id: 'ban-1', reason: 'x-ray' }));
  /** A join of Alice as the enforcement feature runs it: the cache's decision, then the wait for a code. */
  const join = (ip?: string) => {
    const event = preLogin(ALICE, 'Alice', ip);
    onPreLogin(h.context, event);
    return { event, waiting: h.core.appealScreens.completeDenial(event) };
  };
  const notOffered = () => extensions!.markMissing('appealCode', h.clock.now());
  return { h, calls, join, notOffered };
}

const issued: Answer = async (body) => ({
  success: true,
  punishmentId: body.punishmentId,
  outcome: 'issued',
  code: CODE,
  expiresAt: '2026-01-02T00:00:00.000Z',
});

describe('appeal codes on ban screens', () => {
  it("a banned player's first refusal waits for their code; the next join shows it at once without asking", async () => {
    const { h, calls, join } = bannedAlice(issued);
    const first = join('203.0.113.7');
    expect(first.event.denyMessage).toContain(LATER_LINE);
    await first.waiting;
    expect(first.event.denyMessage).toContain(
      `&7Punishment ID: &fban-1\n${CODE_LINE}\n&7Appeal at: &fhttps://appeal.example`,
    );
    expect(calls).toEqual([
      {
        body: { punishmentId: 'ban-1', playerUuid: ALICE, playerName: 'Alice', ipAddress: '203.0.113.7' },
        options: expect.objectContaining({ lane: 'player' }),
      },
    ]);

    const second = join();
    expect(second.waiting).toBeUndefined();
    expect(second.event.denyMessage).toContain(CODE_LINE);
    expect(calls).toHaveLength(1);
    // A code is shown again for an hour of its 24; then a new one is asked for.
    h.clock.jump(60 * 60 * 1000);
    await join().waiting;
    expect(calls).toHaveLength(2);
  });

  it('a slow service: the screen says to join again after appeals.codeWaitMs, and the late code waits for the next join', async () => {
    let answerNow: () => void = () => {};
    const { h, calls, join } = bannedAlice(
      (body) =>
        new Promise((resolve) => {
          answerNow = () => void resolve(issued(body));
        }),
      { appeals: { codeWaitMs: 800 } },
    );
    const first = join();
    await h.clock.advance(799);
    expect(h.clock.pendingCount).toBe(1);
    await h.clock.advance(1);
    await first.waiting;
    expect(first.event.denyMessage).toContain(LATER_LINE);
    answerNow();
    await h.clock.advance(0);
    expect(first.event.denyMessage).toContain(LATER_LINE);

    const second = join();
    expect(second.waiting).toBeUndefined();
    expect(second.event.denyMessage).toContain(CODE_LINE);
    expect(calls).toHaveLength(1);
  });

  it('the service down: "join again" at once, asked again at the next join; never a failed join', async () => {
    let isDown = true;
    const { calls, join } = bannedAlice(async (body) => {
      if (isDown) throw new ApiError({ kind: 'network', endpoint: 'appealCode', message: 'connection refused' });
      return issued(body);
    });
    const first = join();
    await first.waiting;
    expect(first.event.denied).toBe(true);
    expect(first.event.denyMessage).toContain(LATER_LINE);
    isDown = false;
    const second = join();
    await second.waiting;
    expect(second.event.denyMessage).toContain(CODE_LINE);
    expect(calls).toHaveLength(2);
  });

  it('a service without appeal codes (404): no appeal line, and it is not asked again meanwhile', async () => {
    const harness = bannedAlice(async () => {
      harness.notOffered();
      throw new ApiError({ kind: 'http', status: 404, endpoint: 'appealCode', message: 'not found' });
    });
    const first = harness.join();
    await first.waiting;
    expect(first.event.denyMessage).not.toContain('appeal code');
    expect(first.event.denyMessage).toMatch(/&7Punishment ID: &fban-1\n&7Appeal at: /);
    const second = harness.join();
    expect(second.waiting).toBeUndefined();
    expect(second.event.denyMessage).toBe(first.event.denyMessage);
    expect(harness.calls).toHaveLength(1);
  });

  it('says why there is no code: unappealable, an open appeal, a denial with its cooldown', async () => {
    const answers: AppealCodeResponse[] = [
      { success: true, punishmentId: 'ban-1', outcome: 'unappealable' },
      { success: true, punishmentId: 'ban-1', outcome: 'open-appeal' },
      { success: true, punishmentId: 'ban-1', outcome: 'cooldown', appealableAt: '2026-01-08T00:00:00.000Z' },
    ];
    const { h, join } = bannedAlice(async () => answers.shift()!);
    const lines = [];
    for (let join_ = 0; join_ < 3; join_ += 1) {
      const { event, waiting } = join();
      await waiting;
      lines.push(event.denyMessage!.split('\n').at(-2));
      h.clock.jump(61_000);
    }
    expect(lines).toEqual([
      '&7This ban cannot be appealed.',
      '&7Your appeal of this ban is open: read the answer on your private appeal page.',
      '&7Your appeal was denied. You can appeal again after 2026-01-08 00:00 UTC.',
    ]);
  });

  it('with appeals.codeWaitMs 0 the refusal never waits; the code asked meanwhile shows at the next join', async () => {
    const { calls, join } = bannedAlice(issued, { appeals: { codeWaitMs: 0 } });
    const first = join();
    expect(first.waiting).toBeUndefined();
    expect(first.event.denyMessage).toContain(LATER_LINE);
    await Promise.resolve();
    expect(join().event.denyMessage).toContain(CODE_LINE);
    expect(calls).toHaveLength(1);
  });

  it("leaves a screen another listener replaced, and adds the line to an owner's screen without {appeal}", async () => {
    const { h, calls, join } = bannedAlice(issued);
    const event = preLogin(ALICE, 'Alice');
    onPreLogin(h.context, event);
    event.deny('Closed for maintenance');
    expect(h.core.appealScreens.completeDenial(event)).toBeUndefined();
    expect(calls).toHaveLength(0);

    await join().waiting;
    const ban = h.cache.get('ban-1')!;
    const ownerScreen = { ...h.context, messages: () => createMessages({ 'ban.screen': 'Banned: {reason} ({id})' }) };
    expect(renderBanScreen(ownerScreen, ban, h.clock.now(), CODE_LINE)).toBe(`Banned: x-ray (ban-1)\n${CODE_LINE}`);
    expect(renderBanScreen(ownerScreen, ban, h.clock.now(), '')).toBe('Banned: x-ray (ban-1)');
  });
});
