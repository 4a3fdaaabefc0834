import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { createAdmin } from '../../src/service/panel/create-admin.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { offlineUuid } from './helpers/bots.js';
import { API_KEY, NETWORK, startTestService } from './helpers/service.js';

const PASSWORD = 'panel e2e password';
const CHAT_LINES = 100;

/**
 * Issue 34, point 1, in Chromium: a chat report of 100 lines (sent in modl's shape and as objects)
 * is read, punished and closed from its ticket page through the player page's preview and confirm;
 * the ticket lists the punishment and the player page links back; the reporter's notice is kept for
 * the game; then two reports are ticked on the list and assigned, then closed, at once.
 */
describeInBrowser('a report worked on one page', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-ticket-work-'));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  const shot = (name: string) => page.screenshot({ path: screenshotPath(`${name}.png`), fullPage: true });
  const api = () => createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
  const networkId = async () => (await service.context.stores.networks.findNetwork(NETWORK))!;

  async function chatReport(subject: string, lines: number) {
    const base = Date.parse('2026-01-10T11:00:00.000Z');
    const chatMessages = Array.from({ length: lines }, (_, index) =>
      index % 2 === 0
        ? `[2026-01-10T11:${String(Math.floor(index / 2)).padStart(2, '0')}:00.000Z] Spammer: line ${index} <b>ad</b>`
        : { playerName: 'Spammer', message: `line ${index}`, sentAt: new Date(base + index * 30_000).toISOString() },
    );
    const created = await api().createTicket({
      creatorUuid: offlineUuid('Reporter'),
      creatorName: 'Reporter',
      type: 'chat',
      subject,
      description: 'advertising another server',
      reportedPlayerUuid: offlineUuid('Spammer'),
      reportedPlayerName: 'Spammer',
      chatMessages,
    });
    return created.ticketId;
  }

  beforeAll(async () => {
    const dbPath = join(dir, 'service.db');
    service = await startTestService({ dbPath, players: ['Reporter', 'Spammer'] });
    await createAdmin({ dbPath, network: NETWORK, username: 'headmod', password: PASSWORD });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name="username"]', 'headmod');
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${service.url}/panel/`);
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await closeBrowsers();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the chat lines, punishes and closes from the ticket, linked both ways', { timeout: 60_000 }, async () => {
    const id = await chatReport('Chat report: Spammer', CHAT_LINES);
    await page.goto(`${service.url}/panel/tickets/${id}`);
    expect(await page.locator('#ticket-chat li').count()).toBe(CHAT_LINES);
    // The panel's script shows each <time> in the browser's own time zone; the attribute keeps the instant.
    const lines = page.locator('#ticket-chat li');
    expect(await lines.first().locator('time').getAttribute('datetime')).toBe('2026-01-10T11:00:00.000Z');
    expect(await lines.first().locator('strong').textContent()).toBe('Spammer');
    expect(await lines.first().locator('.wrap').textContent()).toBe('line 0 <b>ad</b>');
    expect(await lines.first().locator('a.chat-log-link').getAttribute('href')).toMatch(
      new RegExp(`^/panel/players/${offlineUuid('Spammer')}\\?.*#chat-log$`),
    );
    expect(await lines.nth(1).locator('time').getAttribute('datetime')).toBe('2026-01-10T11:00:30.000Z');
    expect(await lines.nth(1).locator('.wrap').textContent()).toBe('line 1');
    expect(await page.getAttribute('#ticket-reported', 'href')).toBe(`/panel/players/${offlineUuid('Spammer')}`);
    expect(await page.getAttribute('#ticket-reporter', 'href')).toBe(`/panel/players/${offlineUuid('Reporter')}`);
    await shot('ticket-report');

    await page.selectOption('#ticket-punish-form select[name="typeOrdinal"]', '6');
    await page.fill('#ticket-punish-form input[name="reason"]', 'advertising in chat');
    await page.fill('#close-reply', 'Thanks: Spammer is muted.');
    await page.click('#punish-and-close');
    await page.waitForSelector('#confirm-close-reply');
    expect(await page.textContent('#confirm-close-reply')).toBe('Thanks: Spammer is muted.');
    await shot('ticket-punish-confirm');
    await page.click('button.danger');
    await page.waitForURL(/#ticket-punishments$/);

    expect(await page.textContent('#ticket-status')).toBe('Closed');
    const row = page.locator('#ticket-punishments + table tbody tr');
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain('advertising in chat');
    await shot('ticket-punished');
    const stored = await service.context.stores.tickets.punishmentsOf(await networkId(), id);
    expect(stored).toMatchObject([{ targetUuid: offlineUuid('Spammer'), issuerName: 'headmod', typeOrdinal: 6 }]);
    const notices = await service.context.stores.notifications.pendingFor(await networkId(), offlineUuid('Reporter'));
    expect(notices.map((notice) => notice.message)).toContain(
      `Staff replied to your ticket ${id}: Thanks: Spammer is muted.`,
    );

    await row.locator('a').click();
    await page.waitForURL(/\/panel\/players\//);
    const card = page.locator(`#punishment-${stored[0]!.id}`);
    expect(await card.locator('.punishment-tickets a').getAttribute('href')).toBe(`/panel/tickets/${id}`);
  });

  it('ticks reports on the list, assigns them, then closes them', { timeout: 60_000 }, async () => {
    const first = await chatReport('Bulk one', 2);
    const second = await chatReport('Bulk two', 2);
    await page.goto(`${service.url}/panel/tickets?status=Open`);
    await page.check(`input[name="ids"][value="${first}"]`);
    await page.check(`input[name="ids"][value="${second}"]`);
    await page.selectOption('#bulk-form select[name="assignee"]', 'headmod');
    await shot('tickets-bulk');
    await page.click('#bulk-form button[value="assign"]');
    await page.waitForSelector('#bulk-outcome');
    expect(await page.textContent('#bulk-outcome')).toContain('Assigned 2 ticket(s)');
    expect(await page.locator(`tr[data-id="${first}"]`).textContent()).toContain('headmod');

    await page.check(`input[name="ids"][value="${first}"]`);
    await page.check(`input[name="ids"][value="${second}"]`);
    await page.click('#bulk-form button[value="close"]');
    await page.waitForSelector('#bulk-outcome');
    expect(await page.textContent('#bulk-outcome')).toContain('Closed 2 ticket(s)');
    for (const id of [first, second]) {
      expect(await service.context.stores.tickets.factsOf(await networkId(), id)).toMatchObject({ status: 'Closed' });
    }
  });
});
