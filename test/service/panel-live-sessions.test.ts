import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfTokenOf } from '../../src/service/panel/csrf.js';
import { hashSessionId, SESSION_COOKIE } from '../../src/service/panel/staff-session.js';
import type { KyselyStorage } from '../../src/service/store/kysely-storage.js';
import { openPostgresStorage } from '../../src/service/store/open-storage.js';
import type { ServiceStoresPorts } from '../../src/service/store/ports/stores.js';
import { FakeTime } from '../support/fake-time.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { NOTCH, startTestService, type TestService } from './helpers/fixture.js';
import { openLiveFeed } from './helpers/live-feed.js';
import { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

/**
 * Issue 32, point 7: a logout, a disabled account, a reset password or two-factor and a role
 * change close that account's open live feeds, on this instance and on every other one sharing the
 * database. The services run on timers that never fire, so no heartbeat can be what closes them.
 */
const BOUND_MS = 10_000;

/** A new session of the account, made in the database, and a client holding it. */
async function sessionIn(
  stores: Pick<ServiceStoresPorts, 'panelSessions' | 'panelAccounts'>,
  url: string,
  username: string,
  networkId: number,
  nowMs: number,
) {
  const account = (await stores.panelAccounts.findByUsername(username))!;
  const sessionId = randomBytes(32).toString('base64url');
  await stores.panelSessions.create(hashSessionId(sessionId), {
    accountId: account.id,
    networkId,
    createdAt: nowMs,
    expiresAt: nowMs + 3_600_000,
    stage: 'full',
  });
  const client = new PanelClient(url);
  client.setCookie(SESSION_COOKIE, sessionId);
  client.csrfToken = csrfTokenOf(sessionId);
  return { sessionId, client, accountId: account.id };
}

async function waitUntil(check: () => boolean, what: string, withinMs = BOUND_MS): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function ban(service: TestService, reason: string) {
  const created = await service.call('POST', '/punishments/dynamic', {
    targetUuid: NOTCH,
    typeOrdinal: 2,
    issuerName: 'api-mod',
    reason,
  });
  expect(created.status).toBe(200);
}

describe('live feeds of one instance (SQLite) end with their sessions', () => {
  let t: PanelTestService;
  let admin: PanelClient;
  const session = (username: string) =>
    sessionIn(t.stores as unknown as ServiceStoresPorts, t.service.url, username, t.networkId('alpha'), t.clock.now());
  beforeAll(async () => {
    t = await startPanelService({ timers: new FakeTime() });
    await t.addAccount('boss', 'alpha', 'admin');
    admin = (await session('boss')).client;
  });
  afterAll(() => t.close());

  it('logout ends that session and its feed; another session of the account keeps its own', async () => {
    await t.addAccount('leaver', 'alpha', 'moderator');
    const one = await session('leaver');
    const two = await session('leaver');
    const feedOne = await openLiveFeed(t.service.url, one.sessionId);
    const feedTwo = await openLiveFeed(t.service.url, two.sessionId);
    expect([feedOne.status, feedTwo.status]).toEqual([200, 200]);
    await ban(t, 'before the logout');
    await feedOne.received('before the logout', BOUND_MS);

    expect((await one.client.post('/panel/logout')).status).toBe(303);
    await feedOne.ended(BOUND_MS);
    await ban(t, 'after the logout');
    await feedTwo.received('after the logout', BOUND_MS);
    expect(feedOne.text()).not.toContain('after the logout');
    expect(feedTwo.isEnded()).toBe(false);
    feedTwo.close();
  });

  it.each([
    ['disabling it', (id: number) => admin.post(`/panel/accounts/${id}/disable`)],
    [
      'resetting its password',
      (id: number) => admin.post(`/panel/accounts/${id}/password`, { password: 'a brand new password' }),
    ],
    [
      'resetting its two-factor',
      async (id: number) => {
        await t.stores.panelAccounts.setPendingTotp(id, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 0);
        await t.stores.panelAccounts.confirmTotp(id, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 1, 0);
        return admin.post(`/panel/accounts/${id}/two-factor/reset`);
      },
    ],
  ])('%s ends every session of the account and every feed', async (what, act) => {
    const username = `ended-${what.replaceAll(' ', '-')}`;
    await t.addAccount(username, 'alpha', 'moderator');
    const one = await session(username);
    const two = await session(username);
    const bystander = await session('boss');
    const feeds = [await openLiveFeed(t.service.url, one.sessionId), await openLiveFeed(t.service.url, two.sessionId)];
    const bystanderFeed = await openLiveFeed(t.service.url, bystander.sessionId);
    expect((await act(one.accountId)).status).toBeLessThan(400);
    for (const feed of feeds) await feed.ended(BOUND_MS);
    expect((await one.client.get('/panel/')).status).toBe(303);
    expect((await two.client.get('/panel/')).status).toBe(303);
    await ban(t, `after ${what}`);
    await bystanderFeed.received(`after ${what}`, BOUND_MS);
    for (const feed of feeds) expect(feed.text()).not.toContain(`after ${what}`);
    bystanderFeed.close();
  });

  it("a role change ends the account's feeds (the page opens a new one with the new role); the session goes on", async () => {
    await t.addAccount('promoted', 'alpha', 'helper');
    const own = await session('promoted');
    const feed = await openLiveFeed(t.service.url, own.sessionId);
    expect((await admin.post(`/panel/accounts/${own.accountId}/role`, { role: 'moderator' })).status).toBe(303);
    await feed.ended(BOUND_MS);
    expect((await own.client.get('/panel/')).status).toBe(200);
    const again = await openLiveFeed(t.service.url, own.sessionId);
    expect(again.status).toBe(200);
    again.close();
  });

  it("changing a custom role's permissions ends its holders' feeds", async () => {
    expect((await admin.post('/panel/roles', { name: 'watcher', permissions: ['view', 'punish'] })).status).toBe(303);
    await t.addAccount('watching', 'alpha', 'watcher');
    const own = await session('watching');
    const feed = await openLiveFeed(t.service.url, own.sessionId);
    expect((await admin.post('/panel/roles', { name: 'watcher', permissions: ['view'] })).status).toBe(303);
    await feed.ended(BOUND_MS);
  });
});

describe('live feeds of several instances (PostgreSQL) end when another instance ends the session', () => {
  let database: TestDatabase;
  let storage: KyselyStorage;
  let a: TestService;
  let b: TestService;
  let alpha: number;
  let admin: PanelClient;
  const timeOfB = new FakeTime();
  const session = (url: string, username: string) => sessionIn(storage.stores, url, username, alpha, a.clock.now());
  const addAccount = (username: string, role: string) =>
    storage.stores.panelAccounts.create({ networkId: alpha, username, passwordHash: 'x', role, nowMs: 0 });

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startTestService({ databaseUrl: database.url, timers: new FakeTime() });
    b = await startTestService({ databaseUrl: database.url, timers: timeOfB });
    storage = await openPostgresStorage(database.url);
    alpha = (await storage.stores.networks.findNetwork('alpha'))!;
    await addAccount('boss', 'admin');
    admin = (await session(a.service.url, 'boss')).client;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await storage?.close();
    await database?.drop();
  });

  it('a logout through instance A ends the feed held by instance B', async () => {
    await addAccount('leaver', 'moderator');
    const own = await session(a.service.url, 'leaver');
    const feed = await openLiveFeed(b.service.url, own.sessionId);
    expect(feed.status).toBe(200);
    await ban(a, 'written through A');
    await feed.received('written through A', BOUND_MS);
    expect((await own.client.post('/panel/logout')).status).toBe(303);
    await feed.ended(BOUND_MS);
  });

  it.each([
    ['disabling', (id: number) => admin.post(`/panel/accounts/${id}/disable`)],
    [
      'a password reset',
      (id: number) => admin.post(`/panel/accounts/${id}/password`, { password: 'a brand new password' }),
    ],
    ['a role change', (id: number) => admin.post(`/panel/accounts/${id}/role`, { role: 'viewer' })],
    [
      'a two-factor reset',
      async (id: number) => {
        await storage.stores.panelAccounts.setPendingTotp(id, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 0);
        await storage.stores.panelAccounts.confirmTotp(id, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 1, 0);
        return admin.post(`/panel/accounts/${id}/two-factor/reset`);
      },
    ],
  ])('%s through instance A ends the feed held by instance B', async (what, act) => {
    const username = `b-${what.replaceAll(' ', '-')}`;
    await addAccount(username, 'moderator');
    const own = await session(a.service.url, username);
    const feed = await openLiveFeed(b.service.url, own.sessionId);
    expect(feed.status).toBe(200);
    expect((await act(own.accountId)).status).toBeLessThan(400);
    await feed.ended(BOUND_MS);
  });

  it('an instance whose listening connection dropped checks every feed again once it is back', async () => {
    await addAccount('while-away', 'moderator');
    const own = await session(a.service.url, 'while-away');
    const feed = await openLiveFeed(b.service.url, own.sessionId);
    expect(feed.status).toBe(200);
    const armed = timeOfB.pendingCount;
    // Both instances' staff listeners lose their connection; the notification of the logout is lost.
    await storage.pool!.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN bailiff_staff'",
    );
    await waitUntil(() => timeOfB.pendingCount > armed, "instance B's listener to notice the loss");
    expect((await own.client.post('/panel/logout')).status).toBe(303);
    expect(feed.isEnded()).toBe(false);
    await timeOfB.advance(1_000);
    await feed.ended(BOUND_MS);
  });
});
