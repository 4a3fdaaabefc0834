import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { ChatLogEntry } from '../../src/contract/chat-log-schemas.js';
import { CHAT_LOG_EXAMINED } from '../../src/service/panel/chat-log-view.js';
import { createAdmin } from '../../src/service/panel/create-admin.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { offlineUuid } from './helpers/bots.js';
import { API_KEY, NETWORK, startTestService } from './helpers/service.js';

const PASSWORD = 'panel chat log password';
const SPAMMER = offlineUuid('Spammer');
const BYSTANDER = offlineUuid('Bystander');
const FLOODER = offlineUuid('Flooder');
const MINUTE_MS = 60_000;

/**
 * Issue 35, point 1, in Chromium: lines sent through the chat log route are on the player page,
 * newest first, 50 a page, searched, filtered by kind and by time, shown as text; a chat report's
 * line links to the player's log around its time; a role without `view-chat-log` sees none of it.
 */
describeInBrowser('the chat log on the player page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-panel-chat-log-'));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  // An hour ago, whole minutes: well inside the retention, and the range fields show minutes.
  const startMs = Math.floor((Date.now() - 60 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS;
  const api = () => createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
  let reportId = '';

  const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(`${name}.png`), fullPage: true });
  async function loggedIn(username: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${service.url}/panel/`);
    return page;
  }
  const texts = (page: Page) => page.locator('#chat-log-lines tbody td code').allTextContents();

  beforeAll(async () => {
    const dbPath = join(dir, 'service.db');
    service = await startTestService({ dbPath, players: ['Spammer', 'Bystander', 'Reporter', 'Flooder'] });
    await createAdmin({ dbPath, network: NETWORK, username: 'headmod', password: PASSWORD });
    const { stores } = service.context;
    const networkId = (await stores.networks.findNetwork(NETWORK))!;
    await stores.panelAccounts.create({
      networkId,
      username: 'viewer1',
      passwordHash: await hashPassword(PASSWORD),
      role: 'viewer',
      nowMs: Date.now(),
    });
    // 60 lines of the spammer, one a minute from an hour ago: every tenth a command, one with markup.
    const entries: ChatLogEntry[] = Array.from({ length: 60 }, (_, i) => ({
      playerUuid: SPAMMER,
      playerName: 'Spammer',
      kind: i % 10 === 0 ? 'command' : 'chat',
      text:
        i % 10 === 0 ? `/msg Bystander offer ${i}` : i === 45 ? 'join <b>cheap-diamonds</b>.example now' : `line ${i}`,
      at: new Date(startMs + i * MINUTE_MS).toISOString(),
    }));
    entries.push({
      playerUuid: BYSTANDER,
      playerName: 'Bystander',
      kind: 'chat',
      text: 'not the spammer',
      at: new Date(startMs).toISOString(),
    });
    expect(await api().sendChatLog({ batchId: 'game-1-0001', entries })).toEqual({ success: true, accepted: 61 });
    // The flooder: 100 more lines than a search examines, one a second from two hours ago.
    const floodStartMs = startMs - 60 * MINUTE_MS;
    const flood: ChatLogEntry[] = Array.from({ length: CHAT_LOG_EXAMINED + 100 }, (_, i) => ({
      playerUuid: FLOODER,
      playerName: 'Flooder',
      kind: 'chat',
      text: i === 50 || i === 3_000 ? `cheap offer ${i}` : `flood ${i}`,
      at: new Date(floodStartMs + i * 1_000).toISOString(),
    }));
    for (let from = 0; from < flood.length; from += 500) {
      const entries = flood.slice(from, from + 500);
      expect(await api().sendChatLog({ batchId: `game-1-flood-${from}`, entries })).toMatchObject({ success: true });
    }
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await closeBrowsers();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the newest 50 lines, then the older ones; searches, filters by kind and by time; shows markup as text', {
    timeout: 120_000,
  }, async () => {
    const page = await loggedIn('headmod');
    await page.goto(`${service.url}/panel/players/${SPAMMER}`);
    const newest = await texts(page);
    expect(newest).toHaveLength(50);
    expect(newest.slice(0, 3)).toEqual(['line 59', 'line 58', 'line 57']);
    expect(newest).toContain('join <b>cheap-diamonds</b>.example now');
    expect(newest).not.toContain('not the spammer');
    expect(await page.locator('#chat-log-lines b').count()).toBe(0);
    await shot(page, 'player-chat-log');

    await page.click('[data-field="chat-log-older"]');
    await page.waitForURL(/log-before=/);
    // The 50 newest are minutes 59 to 10; the older page holds minutes 9 to 0.
    expect(await texts(page)).toEqual([
      ...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((i) => `line ${i}`),
      '/msg Bystander offer 0',
    ]);
    expect(await page.locator('[data-field="chat-log-older"]').count()).toBe(0);

    await page.click('[data-field="chat-log-newest"]');
    await page.fill('#chat-log-filters input[name="log-q"]', 'DIAMONDS');
    await page.click('#chat-log-filters button[type="submit"]');
    await page.waitForURL(/log-q=DIAMONDS/);
    expect(await texts(page)).toEqual(['join <b>cheap-diamonds</b>.example now']);

    await page.fill('#chat-log-filters input[name="log-q"]', '');
    await page.selectOption('#chat-log-filters select[name="log-kind"]', 'command');
    await page.click('#chat-log-filters button[type="submit"]');
    await page.waitForURL(/log-kind=command/);
    expect(await texts(page)).toEqual([50, 40, 30, 20, 10, 0].map((i) => `/msg Bystander offer ${i}`));

    const minute = (i: number) => new Date(startMs + i * MINUTE_MS).toISOString().slice(0, 16);
    await page.selectOption('#chat-log-filters select[name="log-kind"]', '');
    await page.fill('#chat-log-filters input[name="log-from"]', minute(20));
    await page.fill('#chat-log-filters input[name="log-to"]', minute(23));
    await page.click('#chat-log-filters button[type="submit"]');
    await page.waitForURL(/log-from=/);
    expect(await texts(page)).toEqual(['line 22', 'line 21', '/msg Bystander offer 20']);
  });

  it("links a chat report's line to the player's log around its time", { timeout: 90_000 }, async () => {
    const sentAt = new Date(startMs + 45 * MINUTE_MS).toISOString();
    const { ticketId } = await api().createTicket({
      creatorUuid: offlineUuid('Reporter'),
      creatorName: 'Reporter',
      type: 'chat',
      subject: 'advertising',
      description: 'another server',
      reportedPlayerUuid: SPAMMER,
      reportedPlayerName: 'Spammer',
      chatMessages: [{ playerName: 'Spammer', message: 'join cheap-diamonds.example now', sentAt }],
    });
    reportId = ticketId;
    const page = await loggedIn('headmod');
    await page.goto(`${service.url}/panel/tickets/${ticketId}`);
    await page.click('#ticket-chat a.chat-log-link');
    await page.waitForURL(new RegExp(`/panel/players/${SPAMMER}\\?log-from=`));
    // Half an hour either side of minute 45: minutes 15 to 59 (the log ends at 59), newest first.
    const around = await texts(page);
    expect(around[0]).toBe('line 59');
    expect(around.at(-1)).toBe('line 15');
    expect(around).toContain('join <b>cheap-diamonds</b>.example now');
  });

  it('searches a busy player back a bounded number of lines, says how far, and goes on when asked', {
    timeout: 120_000,
  }, async () => {
    const page = await loggedIn('headmod');
    await page.goto(`${service.url}/panel/players/${FLOODER}?log-q=offer`);
    expect(await texts(page)).toEqual(['cheap offer 3000']);
    // The newest 5,000 lines are seconds 100 to 5,099: the search stopped at second 100.
    const stoppedAt = new Date(startMs - 60 * MINUTE_MS + 100 * 1_000).toISOString();
    const searchedTo = page.locator('[data-field="chat-log-searched-to"]');
    expect(await searchedTo.textContent()).toContain(`Searched the ${CHAT_LOG_EXAMINED.toLocaleString('en')} newest`);
    expect(await searchedTo.locator('time').getAttribute('datetime')).toBe(stoppedAt);
    await shot(page, 'player-chat-log-searched-to');

    expect(await page.locator('[data-field="chat-log-older"]').textContent()).toBe('Search older lines');
    await page.click('[data-field="chat-log-older"]');
    await page.waitForURL(/log-before=/);
    // The 100 lines before it are fewer than the bound: all searched, nothing left to go on with.
    expect(await texts(page)).toEqual(['cheap offer 50']);
    expect(await page.locator('[data-field="chat-log-searched-to"]').count()).toBe(0);
    expect(await page.locator('[data-field="chat-log-older"]').count()).toBe(0);
  });

  it('shows a role without view-chat-log no log, and links no ticket line to one', { timeout: 90_000 }, async () => {
    const page = await loggedIn('viewer1');
    await page.goto(`${service.url}/panel/players/${SPAMMER}`);
    expect(await page.locator('#chat-log').count()).toBe(0);
    expect(await page.content()).not.toContain('cheap-diamonds');
    await page.goto(`${service.url}/panel/players/${SPAMMER}?log-q=line`);
    expect(await page.content()).not.toContain('line 59');
    await page.goto(`${service.url}/panel/tickets/${reportId}`);
    expect(await page.locator('#ticket-chat li').count()).toBe(1);
    expect(await page.locator('#ticket-chat a.chat-log-link').count()).toBe(0);
  });
});
