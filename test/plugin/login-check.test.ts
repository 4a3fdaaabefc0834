import { describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { ChecksInFlight } from '../../plugin/enforcement/checks-in-flight.js';
import { onJoined } from '../../plugin/enforcement/join-notices.js';
import { checkAtLogin, type LoginCheckDeps, onJoinedAfterCheck } from '../../plugin/enforcement/login-check.js';
import { LoginCheckSupport } from '../../plugin/enforcement/login-check-support.js';
import { DEADLINE_STEP_MS } from '../../plugin/enforcement/loop-aware-deadline.js';
import { PendingNotices } from '../../plugin/enforcement/pending-notices.js';
import { onPreLogin } from '../../plugin/enforcement/pre-login.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { ApiError } from '../../src/api/errors.js';
import { ExtensionSupport } from '../../src/api/extension-support.js';
import type { CallProgress } from '../../src/api/moderation-api.js';
import type { LoginCheckBody, LoginCheckResponse } from '../../src/contract/schemas.js';
import { PreLoginEventImpl } from '../../src/runtime/pre-login.js';
import { FakeTime, settle } from '../support/fake-time.js';
import { ALICE, BOB, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

interface Answer {
  resolve(value: LoginCheckResponse): void;
  reject(error: unknown): void;
  /** What the client tells of the call's progress; the fake has sent it as soon as it was asked. */
  progress: CallProgress | undefined;
}

/** The login check over the real cache and outbox, a client whose answers the test releases, and fake timers. */
function harness(loginCheck: Record<string, unknown> = {}) {
  const h = enforcementHarness([], { enforcement: { loginCheck } });
  const settings = bailiffConfigSchema.parse({ enforcement: { loginCheck } }).enforcement.loginCheck;
  const timers = new FakeTime();
  const extensions = new ExtensionSupport({ reprobeAfterMs: 60_000 });
  const requests: LoginCheckBody[] = [];
  const answers: Answer[] = [];
  const deps: LoginCheckDeps = {
    context: h.context,
    client: {
      playerLogin: (body, options) => {
        requests.push(body);
        options?.progress?.sent?.();
        return new Promise((resolve, reject) => answers.push({ resolve, reject, progress: options?.progress }));
      },
    },
    settings: () => settings,
    support: new LoginCheckSupport(() => settings, extensions),
    notices: new PendingNotices(h.context),
    apply: (punishment) => applyPunishment(h.context, punishment),
    timers,
    inFlight: new ChecksInFlight(),
  };
  /** The pre-login listeners in the plugin's order: the cache, then the login check. */
  const preLogin = (uuid = ALICE, name = 'Alice', ip?: string) => {
    const event = new PreLoginEventImpl(uuid, name, ip);
    onPreLogin(h.context, event);
    const pending = event.denied ? undefined : checkAtLogin(deps, event);
    return { event, pending };
  };
  return { ...h, timers, requests, answers, deps, preLogin, extensions };
}

const answer = (overrides: Partial<LoginCheckResponse> = {}): LoginCheckResponse => ({
  success: true,
  message: 'ok',
  activePunishments: [],
  pendingNotifications: [],
  ...overrides,
});

function apiError(kind: 'http' | 'invalid_response' | 'network', status?: number) {
  return new ApiError({ kind, endpoint: 'playerLogin', status, message: `playerLogin: ${kind} ${status ?? ''}` });
}

describe('login check at pre-login', () => {
  it('refuses a ban the cache did not know, stores it and acknowledges this first enforcement', async () => {
    const h = harness();
    const { event, pending } = h.preLogin(ALICE, 'Alice', '203.0.113.9');
    expect(h.requests).toEqual([{ minecraftUuid: ALICE, username: 'Alice', ipAddress: '203.0.113.9' }]);
    const old = servicePunishment({ id: 'old-ban', createdAt: '2024-01-01T00:00:00.000Z' });
    h.answers[0]!.resolve(answer({ activePunishments: [old] }));
    await pending;
    expect(event.denied).toBe(true);
    expect(event.denyMessage).toContain('You are banned');
    expect(event.denyMessage).toContain('old-ban');
    expect(h.cache.activeBan(ALICE, h.clock.now())?.punishment).toMatchObject({ id: 'old-ban', acknowledged: true });
    expect(h.outboxRows().map((row) => row.idempotency_key)).toEqual(['ack:old-ban', 'notify:old-ban']);
    expect(h.deps.support.state(h.clock.now())).toEqual({ state: 'in-use' });
    expect(h.timers.pendingCount).toBe(0);
  });

  it('admits a player with nothing active, and never asks about a player the cache bans', async () => {
    const h = harness();
    const clean = h.preLogin(BOB, 'Bob');
    expect(h.requests).toEqual([{ minecraftUuid: BOB, username: 'Bob' }]);
    h.answers[0]!.resolve(answer());
    await clean.pending;
    expect(clean.event.denied).toBe(false);

    applyPunishment(h.context, servicePunishment({ id: 'known' }));
    const banned = h.preLogin();
    expect(banned.pending).toBeUndefined();
    expect(banned.event.denyMessage).toContain('known');
    expect(h.requests).toHaveLength(1);
  });

  it('leaves out an address the schema would refuse instead of failing the check', () => {
    const h = harness();
    void h.preLogin(ALICE, 'Alice', 'not-an-ip');
    expect(h.requests).toEqual([{ minecraftUuid: ALICE, username: 'Alice' }]);
  });

  it('decides with an answer that came while the server was too busy to read it, past timeoutMs', async () => {
    const h = harness({ timeoutMs: 300 });
    const { event, pending } = h.preLogin();
    await h.timers.advance(100);
    // The game server's loop is held for 2 s (chunks sent to joining players). Node runs due
    // timers before reading sockets: the answer, in since long ago, is read after the check's timer.
    h.clock.jump(2000);
    const ban = servicePunishment({ id: 'answered-ban' });
    h.timers.setTimeout(() => h.answers[0]!.resolve(answer({ activePunishments: [ban] })), 200);
    await h.timers.advance(200);
    await pending;
    expect(event.denied).toBe(true);
    expect(event.denyMessage).toContain('answered-ban');
    expect(h.lines.some((line) => line.message.includes('did not answer in time'))).toBe(false);
  });

  it('decides with an answer read in the same turn of the loop as the expiring timer', async () => {
    const h = harness({ timeoutMs: 300 });
    const { event, pending } = h.preLogin();
    const ban = servicePunishment({ id: 'just-in-time' });
    h.timers.setTimeout(() => h.answers[0]!.resolve(answer({ activePunishments: [ban] })), 300);
    await h.timers.advance(300);
    await pending;
    expect(event.denyMessage).toContain('just-in-time');
  });

  it('admits when no answer comes within timeoutMs; a ban answered later kicks the online player at once', async () => {
    const h = harness({ timeoutMs: 300 });
    const { event, pending } = h.preLogin();
    await h.timers.advance(300);
    await pending;
    expect(event.denied).toBe(false);
    expect(h.lines.some((line) => line.level === 'warn' && line.message.includes('did not answer in time'))).toBe(true);

    const alice = fakePlayer(ALICE, 'Alice');
    h.players.add(alice);
    h.answers[0]!.resolve(answer({ activePunishments: [servicePunishment({ id: 'late-ban' })] }));
    await settle(1);
    expect(alice.kickedWith).toContain('late-ban');
    expect(h.outboxRows().map((row) => row.idempotency_key)).toEqual(['ack:late-ban', 'notify:late-ban']);
  });

  it('says where the time of a check that did not answer went', async () => {
    const h = harness({ timeoutMs: 300 });
    const { pending } = h.preLogin();
    await h.timers.advance(100);
    h.clock.jump(1000); // the loop held for a second: not counted
    await h.timers.advance(300);
    await pending;
    const late = h.lines.find((line) => line.message.includes('did not answer in time'));
    expect(late?.fields).toMatchObject({ player: 'Alice', timeoutMs: 300, sentAfterMs: 0, waitedMs: 1000 });
    expect(late?.fields?.loopHeldMs).toBe(1000 - DEADLINE_STEP_MS);
  });

  it('waits for an answer whose headers arrived before the deadline ran out, and decides with it', async () => {
    const h = harness({ timeoutMs: 300 });
    const { event, pending } = h.preLogin();
    await h.timers.advance(290);
    h.answers[0]!.progress?.answerArriving?.();
    await h.timers.advance(1000); // the body takes its time on a busy loop
    expect(event.denied).toBe(false);
    h.answers[0]!.resolve(answer({ activePunishments: [servicePunishment({ id: 'slow-body-ban' })] }));
    await pending;
    expect(event.denied).toBe(true);
    expect(event.denyMessage).toContain('slow-body-ban');
    expect(h.lines.some((line) => line.message.includes('did not answer in time'))).toBe(false);
  });

  it('refuses, when no answer comes in time, a ban sync stored while the check was out', async () => {
    const h = harness({ timeoutMs: 300 });
    const { event, pending } = h.preLogin();
    // A poll lands between the cache's first look and the deadline.
    applyPunishment(h.context, servicePunishment({ id: 'polled-meanwhile' }));
    await h.timers.advance(300);
    await pending;
    expect(event.denyMessage).toContain('polled-meanwhile');
    expect(h.cache.get('polled-meanwhile')).toMatchObject({ acknowledged: true });
  });

  it.each([
    ['a failure', apiError('http', 503)],
    ['a 404 (not offered)', apiError('http', 404)],
  ])('refuses, after %s, a ban sync stored while the check was out', async (_what, error) => {
    const h = harness();
    const { event, pending } = h.preLogin();
    applyPunishment(h.context, servicePunishment({ id: 'polled-meanwhile' }));
    h.answers[0]!.reject(error);
    await pending;
    expect(event.denyMessage).toContain('polled-meanwhile');
  });

  it('a ban answered late, before the admitted player has joined, kicks at join', async () => {
    const h = harness();
    const { pending } = h.preLogin();
    await h.timers.advance(300);
    await pending;
    h.answers[0]!.resolve(answer({ activePunishments: [servicePunishment({ id: 'between' })] }));
    await settle(1);
    const alice = fakePlayer(ALICE, 'Alice');
    onJoinedAfterCheck(h.deps, alice);
    expect(alice.kickedWith).toContain('between');
    expect(h.cache.get('between')).toMatchObject({ acknowledged: true });
  });

  it.each([
    ['a 500', apiError('http', 500)],
    ['a 429', new ApiError({ kind: 'rate_limited', endpoint: 'playerLogin', status: 429, message: 'slow down' })],
    ['a malformed answer', apiError('invalid_response')],
    ['no connection', apiError('network')],
  ])('admits on %s and stores nothing', async (_what, error) => {
    const h = harness();
    const { event, pending } = h.preLogin();
    h.answers[0]!.reject(error);
    await pending;
    expect(event.denied).toBe(false);
    expect(h.cache.count()).toBe(0);
    expect(h.deps.support.state(h.clock.now())).toEqual({ state: 'in-use' });
  });

  it('with onUnavailable: refuse, refuses on a failure and on a late answer', async () => {
    const h = harness({ onUnavailable: 'refuse' });
    const failed = h.preLogin();
    h.answers[0]!.reject(apiError('http', 503));
    await failed.pending;
    expect(failed.event.denyMessage).toContain('cannot be reached');

    const slow = h.preLogin(BOB, 'Bob');
    await h.timers.advance(300);
    await slow.pending;
    expect(slow.event.denyMessage).toContain('cannot be reached');
  });

  it('remembers a 404 (admitting without asking) until reprobeAfterMs has passed', async () => {
    const h = harness();
    const first = h.preLogin();
    // What the client does with a 404 from an extension, before the caller sees it.
    h.extensions.markMissing('playerLogin', h.clock.now());
    h.answers[0]!.reject(apiError('http', 404));
    await first.pending;
    expect(first.event.denied).toBe(false);
    expect(h.deps.support.state(h.clock.now())).toEqual({ state: 'unsupported', retryAt: h.clock.now() + 60_000 });

    expect(h.preLogin(BOB, 'Bob').pending).toBeUndefined();
    h.clock.jump(60_000);
    void h.preLogin(BOB, 'Bob');
    expect(h.requests).toHaveLength(2);
  });

  it('with enabled: false never asks', () => {
    const h = harness({ enabled: false });
    expect(h.preLogin().pending).toBeUndefined();
    expect(h.requests).toHaveLength(0);
    expect(h.deps.support.state(h.clock.now())).toEqual({ state: 'off' });
  });

  it('a punishment that cannot be stored is logged, and the join is still decided', async () => {
    const h = harness();
    h.deps.apply = () => {
      throw new Error('disk full');
    };
    const { event, pending } = h.preLogin();
    h.answers[0]!.resolve(answer({ activePunishments: [servicePunishment({ id: 'unstorable' })] }));
    await pending;
    expect(event.denied).toBe(false);
    expect(h.lines.find((line) => line.level === 'error')).toMatchObject({
      message: 'could not apply a punishment from the login check',
      fields: { punishmentId: 'unstorable', error: 'disk full' },
    });
  });

  it('ignores punishments of another player in the answer', async () => {
    const h = harness();
    const { event, pending } = h.preLogin();
    h.answers[0]!.resolve(answer({ activePunishments: [servicePunishment({ id: 'bobs', targetUuid: BOB })] }));
    await pending;
    expect(event.denied).toBe(false);
    expect(h.cache.count()).toBe(0);
  });

  it("stores another player's IP ban when it covers the joining address, and refuses with the IP-ban screen", async () => {
    const h = harness();
    const { event, pending } = h.preLogin(ALICE, 'Alice', '198.51.100.20');
    const ofRange = servicePunishment({ id: 'range', targetUuid: BOB, data: { ipAddress: '198.51.100.0/24' } });
    const elsewhere = servicePunishment({ id: 'elsewhere', targetUuid: BOB, data: { ipAddress: '192.0.2.1' } });
    h.answers[0]!.resolve(answer({ activePunishments: [ofRange, elsewhere] }));
    await pending;
    expect(event.denied).toBe(true);
    expect(event.denyMessage).toContain('(IP ban)');
    expect(h.cache.get('range')?.ipAddress).toBe('198.51.100.0/24');
    expect(h.cache.get('elsewhere')).toBeUndefined();
  });

  it('stores mutes for the join, and shows pending notices at join, acknowledged through the outbox', async () => {
    const h = harness();
    const { event, pending } = h.preLogin();
    h.answers[0]!.resolve(
      answer({
        activePunishments: [servicePunishment({ id: 'mute-1', typeOrdinal: 1, reason: 'spam' })],
        pendingNotifications: [
          { id: 'mute-1', message: 'Manual Mute: spam', type: 'mute', createdAt: '2026-01-01T00:00:00.000Z' },
          { id: 'old-kick', message: 'Kick: rude', type: 'kick', createdAt: '2025-01-01T00:00:00.000Z' },
        ],
      }),
    );
    await pending;
    expect(event.denied).toBe(false);
    const alice = fakePlayer(ALICE, 'Alice');
    h.players.add(alice);
    onJoinedAfterCheck(h.deps, alice);
    onJoined(h.context, alice, false);
    expect(alice.messages).toEqual([
      expect.stringContaining('Kick: rude'),
      expect.stringContaining('You have been muted'),
    ]);
    expect(h.outboxRows().map((row) => row.idempotency_key)).toEqual([
      'notify:old-kick',
      'ack:mute-1',
      'notify:mute-1',
    ]);
    expect(h.deps.notices.size).toBe(0);
  });
});
