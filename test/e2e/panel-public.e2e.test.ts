import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningService } from '../../src/service/index.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { offlineUuid } from './helpers/bots.js';
import { ADMIN_TOKEN, API_KEY, adminApi, NETWORK, startTestService } from './helpers/service.js';

const STAFF_PASSWORD = 'e2e staff password 42';
const XSS_REASON = '<script>alert(1)</script> <img src=x onerror=alert(1)> "><b>bold</b>';
const APPEAL_TEXT = 'I lent my account to my brother; it will not happen again. <img src=x onerror=alert(1)>';

describeInBrowser('the public panel in Chromium: ban list, appeal, staff decision', () => {
  let service: RunningService;
  let browser: Browser;
  let dir: string;
  const dialogs: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-panel-e2e-'));
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day).toISOString();
    service = await startTestService({
      dbPath: join(dir, 'service.db'),
      players: ['Griefer', 'Spammer', 'Cheater', 'Rude'],
      punishments: [
        {
          id: 'ban-griefer',
          targetUuid: offlineUuid('Griefer'),
          typeOrdinal: 13,
          reason: 'Griefing spawn',
          createdAt: at(5),
        },
        {
          id: 'mute-spammer',
          targetUuid: offlineUuid('Spammer'),
          typeOrdinal: 6,
          reason: XSS_REASON,
          createdAt: at(4),
        },
        { id: 'kick-rude', targetUuid: offlineUuid('Rude'), typeOrdinal: 0, reason: 'Calm down', createdAt: at(3) },
        {
          id: 'ban-cheater',
          targetUuid: offlineUuid('Cheater'),
          typeOrdinal: 14,
          reason: 'Kill aura',
          createdAt: at(1),
        },
      ],
    });
    const admin = await fetch(`${service.url}/admin/v1/networks/${NETWORK}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ publicList: true }),
    });
    expect(admin.status).toBe(200);
    const { stores, clock } = service.context;
    const networkId = (await stores.networks.findNetwork(NETWORK))!;
    await stores.panelAccounts.create({
      networkId,
      username: 'moderator',
      passwordHash: await hashPassword(STAFF_PASSWORD),
      role: 'moderator',
      nowMs: clock.now(),
    });
    await stores.panelAccounts.create({
      networkId,
      username: 'owner',
      passwordHash: await hashPassword(STAFF_PASSWORD),
      role: 'admin',
      nowMs: clock.now(),
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await closeBrowsers();
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function loggedIn(username: string): Promise<Page> {
    const page = await newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name=username]', username);
    await page.fill('input[name=password]', STAFF_PASSWORD);
    await page.click('form button[type=submit]');
    await page.waitForURL(`${service.url}/panel/`);
    return page;
  }

  /** A one-time appeal code, asked for as the game server does when it refuses the player. */
  async function appealCode(punishmentId: string, playerName: string): Promise<string> {
    const response = await fetch(`${service.url}/v1/minecraft/appeals/code`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ punishmentId, playerUuid: offlineUuid(playerName), playerName }),
    });
    const answer = (await response.json()) as { outcome: string; code: string };
    expect(answer.outcome).toBe('issued');
    return answer.code;
  }

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    const page = await context.newPage();
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    return page;
  }

  it('browses the public list: newest first, filter by kind, search a player; reasons shown as text', async () => {
    const page = await newPage();
    await page.goto(`${service.url}/panel/public/${NETWORK}/`);
    const reasons = await page.locator('td.reason').allTextContents();
    expect(reasons).toEqual(['Kill aura', 'Calm down', XSS_REASON, 'Griefing spawn']);
    expect(await page.locator('main b').count()).toBe(0);
    await page.screenshot({ path: screenshotPath('public-list.png'), fullPage: true });

    await page.selectOption('#kind', 'mute');
    await page.click('form.filters button[type=submit]');
    expect(await page.locator('td.reason').allTextContents()).toEqual([XSS_REASON]);

    await page.fill('#player', 'griefer');
    await page.selectOption('#kind', '');
    await page.click('form.filters button[type=submit]');
    await page.waitForURL(`**/player/${offlineUuid('Griefer')}`);
    expect(await page.textContent('h1')).toBe('Griefer');
    expect(await page.locator('td.reason').allTextContents()).toEqual(['Griefing spawn']);
    await page.screenshot({ path: screenshotPath('public-player.png'), fullPage: true });
    expect(dialogs).toEqual([]);
  });

  it('a banned player appeals; staff accept it from the ticket; the player reads the answer and the ban is pardoned', async () => {
    const player = await newPage();
    // One network on this service: the bare appeal address leads to it.
    await player.goto(`${service.url}/panel/appeal`);
    expect(player.url()).toBe(`${service.url}/panel/appeal/${NETWORK}`);
    await player.fill('#code', await appealCode('ban-cheater', 'Cheater'));
    await player.fill('#playerName', 'Cheater');
    await player.fill('#message', APPEAL_TEXT);
    await player.screenshot({ path: screenshotPath('appeal-form.png'), fullPage: true });
    await player.click('form button[type=submit]');
    await player.waitForURL('**/panel/appeal/status/**');
    expect(await player.textContent('#appeal-status')).toBe('Waiting for an answer');
    expect(await player.textContent('#appeal-text')).toBe(APPEAL_TEXT);
    const privateLink = player.url();

    const staff = await loggedIn('moderator');
    await staff.goto(`${service.url}/panel/tickets?type=appeal`);
    await staff.screenshot({ path: screenshotPath('tickets.png'), fullPage: true });
    await staff.click('table a');
    expect(await staff.textContent('#ticket-description')).toBe(APPEAL_TEXT);
    await staff.fill('#answer', 'Accepted: welcome back, play fair.');
    await staff.screenshot({ path: screenshotPath('ticket-appeal.png'), fullPage: true });
    await staff.click('#appeal-decision button[value=accept]');
    await staff.waitForSelector('#appeal-outcome');
    expect(await staff.textContent('#ticket-status')).toBe('Closed');

    await player.goto(privateLink);
    expect(await player.textContent('#appeal-status')).toBe('Accepted: the punishment was lifted');
    expect(await player.textContent('#appeal-answer')).toBe('Accepted: welcome back, play fair.');
    await player.screenshot({ path: screenshotPath('appeal-answered.png'), fullPage: true });
    const punishment = await adminApi(() => service.url).punishment('ban-cheater');
    expect(punishment.punishment.status).toBe('pardoned');

    await staff.goto(`${service.url}/panel/audit`);
    expect(await staff.locator('#audit').textContent()).toContain('appeal.accept');
    await staff.screenshot({ path: screenshotPath('audit.png'), fullPage: true });
    // The game server holds a stream connection and acknowledges a ban, as a Bailiff plugin does.
    const stream = new WebSocket(`${service.url.replace('http', 'ws')}/v1/minecraft/stream`, {
      headers: { 'x-api-key': API_KEY },
    });
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    const acknowledged = await fetch(`${service.url}/v1/minecraft/punishments/acknowledge`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ punishmentId: 'ban-griefer', playerUuid: offlineUuid('Griefer'), success: true }),
    });
    expect(acknowledged.status).toBe(200);
    await staff.goto(`${service.url}/panel/servers`);
    const serverRow = await staff.locator('#servers tr[data-server="game-1"]').textContent();
    expect(serverRow).toContain('connected since');
    expect(serverRow).not.toContain('none yet');
    stream.close();
    await staff.screenshot({ path: screenshotPath('servers.png'), fullPage: true });
    expect(dialogs).toEqual([]);
  });

  /** Fills and sends the appeal form on `page`. */
  async function sendAppeal(page: Page, typed: string, name: string): Promise<void> {
    await page.goto(`${service.url}/panel/appeal/${NETWORK}`);
    await page.fill('#code', typed);
    await page.fill('#playerName', name);
    await page.fill('#message', 'I did not grief the spawn; the logs will show it was someone else.');
    await page.click('form button[type=submit]');
  }

  it('a code works once, with its player name; a denied appeal says when to appeal again', {
    timeout: 60_000,
  }, async () => {
    const player = await newPage();
    const code = await appealCode('ban-griefer', 'Griefer');
    // Another player's name with Griefer's code is refused without using the code up.
    await sendAppeal(player, code, 'Spammer');
    expect(await player.textContent('#code-error')).toBe(
      'this appeal code is not valid for this player name: check both, or get a new code',
    );
    await sendAppeal(player, code.toLowerCase(), 'griefer');
    await player.waitForURL('**/panel/appeal/status/**');
    const privateLink = player.url();

    const staff = await loggedIn('moderator');
    await staff.goto(`${service.url}/panel/tickets?type=appeal`);
    await staff.click('table a:has-text("ban-griefer")');
    await staff.fill('#answer', 'The logs show you at spawn with TNT.');
    await staff.click('#appeal-decision button[value=deny]');
    await staff.waitForSelector('#appeal-outcome');

    await player.goto(privateLink);
    expect(await player.textContent('#appeal-status')).toBe('Denied: the punishment stays');
    expect(await player.textContent('#appeal-answer')).toBe('The logs show you at spawn with TNT.');
    expect(await player.textContent('#next-appeal')).toMatch(
      /^You may appeal again after \d{4}-\d\d-\d\d \d\d:\d\d UTC, with a new appeal code from the game\.$/,
    );
    await player.screenshot({ path: screenshotPath('appeal-denied.png'), fullPage: true });
    await sendAppeal(player, code, 'Griefer');
    expect(await player.textContent('#code-error')).toContain('already used');
    expect(dialogs).toEqual([]);
  });

  it('staff mark a mute unappealable on the player page, and the form says so', { timeout: 60_000 }, async () => {
    const player = await newPage();
    const muteCode = await appealCode('mute-spammer', 'Spammer');
    const staff = await loggedIn('moderator');
    await staff.goto(`${service.url}/panel/players/${offlineUuid('Spammer')}`);
    await staff.click('#punishment-mute-spammer .appealable-form button');
    await staff.waitForSelector('#punishment-mute-spammer [data-field="unappealable"]');
    expect(await staff.textContent('#punishment-mute-spammer .appealable-form button')).toBe('Allow appeals');
    await sendAppeal(player, muteCode, 'Spammer');
    expect(await player.textContent('#code-error')).toBe('this punishment cannot be appealed: the staff marked it so');
    expect(dialogs).toEqual([]);
  });

  it('uploads a migration file from the panel and watches the import finish', async () => {
    const file = join(dir, 'export.json');
    const players = Array.from({ length: 1200 }, (_, index) => ({
      minecraftUuid: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
      usernames: [{ username: `Imported${index}`, date: '2025-01-01T00:00:00Z' }],
      punishments: [
        {
          id: `old-${index}`,
          typeOrdinal: 2,
          reason: 'imported ban',
          issued: '2025-01-02T00:00:00Z',
          duration: -1,
          active: true,
        },
      ],
    }));
    writeFileSync(file, JSON.stringify({ players }));
    const owner = await loggedIn('owner');
    await owner.goto(`${service.url}/panel/migration`);
    await owner.setInputFiles('input[type=file]', file);
    await owner.click('#migration-form button[type=submit]');
    await owner.waitForURL(`${service.url}/panel/migration`);
    // The page reloads itself while the import runs; wait for the row to say completed.
    await owner.waitForSelector('#uploads .badge:text("completed")', { timeout: 30_000 });
    expect(await owner.locator('#uploads').textContent()).toContain('imported 1200 players and 1200 punishments');
    await owner.screenshot({ path: screenshotPath('migration.png'), fullPage: true });
    const imported = await adminApi(() => service.url).punishment('old-1199');
    expect(imported.punishment.status).toBe('active');
  });
});
