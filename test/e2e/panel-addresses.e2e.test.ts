import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../src/service/index.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { offlineUuid } from './helpers/bots.js';
import { ADMIN_TOKEN, API_KEY, NETWORK, startTestService } from './helpers/service.js';

const PASSWORD = 'e2e addresses password 7';
const STAFF_NAME = 'SecretModName';
const RAW = ['203.0.113.12', '203.0.113.0', '2001:db8::12', '203.0.113.17', '198.51.100.20'];

/**
 * What a stranger and a role without `see-ip` read in Chromium: the public list with addresses glued
 * to anything hidden, a Linked Ban as "linked account", issuers as the network's label; and a viewer's
 * live dashboard receiving a new punishment with its addresses hidden while a moderator reads them.
 */
describeInBrowser('addresses and staff names never reach strangers or roles without see-ip', () => {
  let service: RunningService;
  let browser: Browser;
  let dir: string;
  const contexts: BrowserContext[] = [];

  const api = (path: string, body: unknown) =>
    fetch(`${service.url}/v1/minecraft${path}`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function punish(name: string, reason: string, data?: Record<string, unknown>): Promise<string> {
    const response = await api('/punishments/dynamic', {
      targetUuid: offlineUuid(name),
      typeOrdinal: 2,
      issuerName: STAFF_NAME,
      reason,
      ...(data ? { data } : {}),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { punishmentId: string }).punishmentId;
  }

  async function login(name: string, ipAddress: string): Promise<void> {
    const response = await api('/player/login', { minecraftUuid: offlineUuid(name), username: name, ipAddress });
    expect(response.status).toBe(200);
  }

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    return context.newPage();
  }

  async function loggedIn(username: string): Promise<Page> {
    const page = await newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name=username]', username);
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form button[type=submit]');
    await page.waitForURL(`${service.url}/panel/`);
    return page;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-panel-addresses-'));
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: ['Griefer', 'Main', 'Alt'] });
    const settings = await fetch(`${service.url}/admin/v1/networks/${NETWORK}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ publicList: true }),
    });
    expect(settings.status).toBe(200);
    const { stores, clock } = service.context;
    const networkId = (await stores.networks.findNetwork(NETWORK))!;
    const passwordHash = await hashPassword(PASSWORD);
    for (const [username, role] of [
      ['watcher', 'viewer'],
      ['headmod', 'moderator'],
    ] as const) {
      await stores.panelAccounts.create({ networkId, username, passwordHash, role, nowMs: clock.now() });
    }
    await punish('Griefer', 'IP:203.0.113.12 alt');
    await punish('Griefer', 'ip:203.0.113.0/24 range');
    await punish('Griefer', 'addr:2001:db8::12');
    await punish('Griefer', 'e.g.203.0.113.17 again');
    // Main is banned with alt-blocking; Alt then logs in from Main's address and gets a Linked Ban.
    await login('Main', '198.51.100.20');
    await punish('Main', 'MainAccountSecretReason', { altBlocking: true });
    await login('Alt', '198.51.100.20');
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await closeBrowsers();
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the public list and a player page show no address, no staff name, and a Linked Ban as "linked account"', async () => {
    const page = await newPage();
    await page.goto(`${service.url}/panel/public/${NETWORK}/player/${offlineUuid('Griefer')}`);
    expect(await page.locator('td.reason').allTextContents()).toEqual([
      'e.g.[address hidden] again',
      'addr:[address hidden]',
      'ip:[address hidden] range',
      'IP:[address hidden] alt',
    ]);
    const text = (await page.locator('main').textContent()) ?? '';
    for (const raw of RAW) expect(text).not.toContain(raw);
    expect(text).not.toContain(STAFF_NAME);
    expect(text).toContain('Staff');

    await page.goto(`${service.url}/panel/public/${NETWORK}/player/${offlineUuid('Alt')}`);
    expect(await page.locator('td.reason').allTextContents()).toEqual(['linked account']);
    expect(await page.locator('main').textContent()).not.toContain('MainAccountSecretReason');

    await page.goto(`${service.url}/panel/public/${NETWORK}/`);
    const list = (await page.locator('main').textContent()) ?? '';
    for (const raw of RAW) expect(list).not.toContain(raw);
    expect(list).not.toContain(STAFF_NAME);
    expect(list.match(/MainAccountSecretReason/g)).toHaveLength(1);
    await page.screenshot({ path: screenshotPath('public-list-addresses.png'), fullPage: true });
  });

  it("a viewer's live dashboard gets a new punishment with its addresses hidden; a moderator's shows them", async () => {
    const viewer = await loggedIn('watcher');
    const moderator = await loggedIn('headmod');
    for (const page of [viewer, moderator]) {
      await page.waitForSelector('#live-status[data-state="open"]', { timeout: 10_000 });
    }
    const id = await punish('Griefer', 'live: addr:2001:db8::12 and IP:203.0.113.12:25565');
    const [viewerRow, moderatorRow] = await Promise.all(
      [viewer, moderator].map((page) => page.waitForSelector(`tr[data-id="${id}"]`, { timeout: 10_000 })),
    );
    expect(await viewerRow!.textContent()).toContain('live: addr:[address hidden] and IP:[address hidden]');
    expect(await viewerRow!.textContent()).not.toContain('203.0.113.12');
    expect(await moderatorRow!.textContent()).toContain('live: addr:2001:db8::12 and IP:203.0.113.12:25565');
    await viewer.screenshot({ path: screenshotPath('dashboard-viewer-addresses.png'), fullPage: true });

    await viewer.goto(`${service.url}/panel/players/${offlineUuid('Griefer')}`);
    const player = (await viewer.locator('main').textContent()) ?? '';
    for (const raw of RAW) expect(player).not.toContain(raw);
    expect(player).toContain('IP:[address hidden] alt');
  });
});
