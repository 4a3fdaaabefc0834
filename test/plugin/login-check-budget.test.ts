import { describe, expect, it } from 'vitest';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { ChecksInFlight } from '../../plugin/enforcement/checks-in-flight.js';
import { checkAtLogin, type LoginCheckDeps } from '../../plugin/enforcement/login-check.js';
import { LoginCheckSupport } from '../../plugin/enforcement/login-check-support.js';
import { PendingNotices } from '../../plugin/enforcement/pending-notices.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { createModerationClient } from '../../src/api/client.js';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import { PreLoginEventImpl } from '../../src/runtime/pre-login.js';
import { fakeFetch, jsonResponse } from '../api/helpers/fake-fetch.js';
import { FakeTimers } from '../runtime/helpers/fake-timers.js';
import { enforcementHarness } from './helpers/harness.js';

const TYPES = { data: [{ ordinal: 14, title: 'Cheating', category: 'gameplay', enabled: true }] };
const NOTHING_ACTIVE = { success: true, message: 'ok', activePunishments: [], pendingNotifications: [] };
const uuidOf = (index: number) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/** The login check over a real client and gate (60 calls a minute), a fake fetch and one fake clock for all. */
function harness() {
  const h = enforcementHarness();
  const timers = new FakeTimers();
  const { fetch, calls } = fakeFetch((call) =>
    jsonResponse(call.url.pathname.endsWith('/player/login') ? NOTHING_ACTIVE : TYPES),
  );
  const client = createModerationClient({
    baseUrl: 'http://127.0.0.1:8787',
    apiKey: 'test-key-test-key',
    fetch,
    timers,
    clock: timers,
    gate: new RateLimitGate({ requestsPerMinute: 60 }),
  });
  const settings = bailiffConfigSchema.parse({}).enforcement.loginCheck;
  const deps: LoginCheckDeps = {
    context: h.context,
    client,
    settings: () => settings,
    support: new LoginCheckSupport(() => settings, client.extensions),
    notices: new PendingNotices(h.context),
    apply: (punishment) => applyPunishment(h.context, punishment),
    timers,
    inFlight: new ChecksInFlight(),
  };
  const join = (uuid: string) => {
    const event = new PreLoginEventImpl(uuid, `Player${uuid.slice(-3)}`, '203.0.113.9');
    return { event, pending: checkAtLogin(deps, event) };
  };
  const sent = (path: string) => calls.filter((call) => call.url.pathname.endsWith(path)).length;
  return { client, timers, deps, join, sent };
}

describe('login checks and the request budget', () => {
  it('a check still waiting for the budget when its join gives up is never sent, and delays nobody', async () => {
    const h = harness();
    await h.client.punishmentTypes(); // the minute's first call: every check below must wait
    const joins = Array.from({ length: 15 }, (_, index) => h.join(uuidOf(index)));
    await h.timers.advance(300);
    for (const { event, pending } of joins) {
      await pending;
      expect(event.denied).toBe(false);
    }
    // A staff action after them takes the very next slot (1 s after the first call), not the 16th.
    const staff = h.client.punishmentTypes();
    await h.timers.advance(699);
    expect(h.sent('/punishments/types')).toBe(1);
    await h.timers.advance(1);
    await expect(staff).resolves.toEqual(TYPES);
    await h.timers.advance(60_000);
    expect(h.sent('/player/login')).toBe(0);
    expect(h.sent('/punishments/types')).toBe(2);
    expect(h.deps.inFlight.size).toBe(0);
  });

  it('a check that gets its slot in time is sent and decides the join', async () => {
    const h = harness();
    const { event, pending } = h.join(uuidOf(1));
    await h.timers.advance(0);
    await pending;
    expect(event.denied).toBe(false);
    expect(h.sent('/player/login')).toBe(1);
  });

  it('sends one check per player at a time: joining again waits for the one out', async () => {
    const h = harness();
    await h.client.punishmentTypes();
    const first = h.join(uuidOf(7));
    const second = h.join(uuidOf(7));
    await h.timers.advance(300);
    await Promise.all([first.pending, second.pending]);
    expect(h.deps.inFlight.size).toBe(0);
    await h.timers.advance(60_000);
    expect(h.sent('/player/login')).toBe(0);

    const third = h.join(uuidOf(7));
    const fourth = h.join(uuidOf(7));
    await h.timers.advance(0);
    await Promise.all([third.pending, fourth.pending]);
    expect(h.sent('/player/login')).toBe(1);
  });
});
