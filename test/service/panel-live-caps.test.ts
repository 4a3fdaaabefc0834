import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../src/service/index.js';
import { SESSION_COOKIE } from '../../src/service/panel/staff-session.js';
import { type LiveFeedReader, openLiveFeed } from './helpers/live-feed.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

/**
 * Issue 32, point 6: one network's viewer cannot switch off live updates for every network. Live
 * feeds are capped per account and per network below the service-wide cap, so one account or one
 * network alone never reaches it.
 */
let t: PanelTestService;
const open: LiveFeedReader[] = [];
const feedOf = async (username: string) => {
  const client = await t.sessionOf(username);
  const feed = await openLiveFeed(t.service.url, client.cookie(SESSION_COOKIE)!);
  if (feed.status === 200) open.push(feed);
  return feed;
};

beforeAll(async () => {
  t = await startPanelService({ panelLivePerAccount: 2, panelLivePerNetwork: 3, panelLiveMax: 4 });
  await t.addAccount('viewer-a1', 'alpha', 'viewer');
  await t.addAccount('viewer-a2', 'alpha', 'viewer');
  await t.addAccount('admin-b', 'beta', 'admin');
  await t.addAccount('viewer-b', 'beta', 'viewer');
});
afterAll(async () => {
  for (const feed of open) feed.close();
  await t.close();
});

describe('live dashboards are capped per account, per network and in all', () => {
  it("one account's many feeds leave another network's admin theirs", async () => {
    expect((await feedOf('viewer-a1')).status).toBe(200);
    expect((await feedOf('viewer-a1')).status).toBe(200);
    const third = await feedOf('viewer-a1');
    expect(third.status).toBe(429);
    expect(third.text()).toContain('your account has 2 live dashboards open already');
    expect((await feedOf('admin-b')).status).toBe(200);
  });

  it('a network holds at most its share; the service-wide cap is reached only by several networks together', async () => {
    expect((await feedOf('viewer-a2')).status).toBe(200);
    // Alpha holds 3, its share: its other viewer is refused, beta is not.
    const refused = await feedOf('viewer-a2');
    expect(refused.status).toBe(429);
    expect(refused.text()).toContain('this network has 3 live dashboards open already');
    // Four in all (alpha 3, beta 1): the last resort now refuses everyone with 503.
    const full = await feedOf('viewer-b');
    expect(full.status).toBe(503);
    expect(full.text()).toContain('too many live dashboards open on this service');
    open.shift()!.close();
    await waitUntil(async () => (await feedOf('viewer-b')).status === 200);
  });

  it('refuses caps that would let one network fill the service', async () => {
    await expect(startService({ port: 0, panelLivePerNetwork: 10, panelLiveMax: 10 })).rejects.toThrow(
      /panelLivePerNetwork.*one network \(10\) must stay below those of the whole service \(10\)/,
    );
    await expect(startService({ port: 0, panelLivePerAccount: 0 })).rejects.toThrow(
      'service option panelLivePerAccount: must be an integer >= 1, received 0',
    );
  });
});

/** Closing a feed from this side reaches the service a moment later. */
async function waitUntil(check: () => Promise<boolean>, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not within ${withinMs} ms`);
}
