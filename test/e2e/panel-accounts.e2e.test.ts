import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningService, startService } from '../../src/service/index.js';
import { createAdmin } from '../../src/service/panel/create-admin.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { closeAgents, requestFrom } from '../service/helpers/http-from.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { FakeTime } from '../support/fake-time.js';
import { offlineUuid } from './helpers/bots.js';
import { API_KEY, NETWORK } from './helpers/service.js';

const PASSWORD = 'panel e2e password';
const TARGET = 'Griefer2';

/**
 * Issue 32, points 4 and 7, in Chromium: two-factor set up from the QR code and the key on the
 * account page, logins with a TOTP code computed here and with a recovery code; strangers' wrong
 * passwords from other addresses leave the owner's known browser free while a new browser meets the
 * username's limit; and an open dashboard's live feed ends after a logout, a disable, a password
 * reset, and a role change (after which the page follows the feed again with the new role). The
 * service's timers never fire, so no heartbeat closes a feed: only the session's end does.
 */
describeInBrowser('staff accounts end to end', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-accounts-'));
  let service: RunningService;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let base: string;

  const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(`${name}.png`), fullPage: true });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    return context.newPage();
  }

  /** The password step in the page; `code` answers the second step when there is one. */
  async function logIn(
    page: Page,
    username: string,
    code?: () => Promise<string>,
    onCodePage?: () => Promise<unknown>,
  ) {
    await page.goto(`${base}/panel/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    if (code) {
      await page.waitForURL(/\/panel\/login\/code/);
      await onCodePage?.();
      await page.fill('input[name="code"]', await code());
      await page.click('button[type="submit"]');
    }
  }

  async function ban(reason: string) {
    const created = await fetch(`${base}/v1/minecraft/punishments/dynamic`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ targetUuid: offlineUuid(TARGET), typeOrdinal: 2, issuerName: 'api', reason }),
    });
    expect(created.status).toBe(200);
  }

  /** An open dashboard of a new moderator, its live feed connected. */
  async function dashboardOf(username: string): Promise<Page> {
    const { stores } = service.context;
    const networkId = (await stores.networks.findNetwork(NETWORK))!;
    await stores.panelAccounts.create({
      networkId,
      username,
      passwordHash: await hashPassword(PASSWORD),
      role: 'moderator',
      nowMs: Date.now(),
    });
    const page = await newPage();
    await logIn(page, username);
    await page.waitForURL(`${base}/panel/`);
    await page.waitForSelector('#live-status[data-state="open"]', { timeout: 10_000 });
    return page;
  }

  /** The next `/panel/live` answer the page gets: a reconnection, after the service ended its feed. */
  const nextLiveAnswer = (page: Page, status: number) =>
    page.waitForResponse((response) => response.url() === `${base}/panel/live` && response.status() === status, {
      timeout: 20_000,
    });

  let admin: Page;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    const dbPath = join(dir, 'service.db');
    service = await startService({
      host: '127.0.0.1',
      port: 0,
      dbPath,
      timers: new FakeTime(),
      seed: {
        networks: [
          {
            name: NETWORK,
            servers: [{ name: 'game-1', apiKey: API_KEY }],
            players: [{ uuid: offlineUuid(TARGET), name: TARGET }],
            punishments: [],
          },
        ],
      },
    });
    base = service.url;
    await createAdmin({ dbPath, network: NETWORK, username: 'headmod', password: PASSWORD });
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    closeAgents();
    for (const context of contexts) await context.close().catch(() => {});
    await closeBrowsers();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets two-factor up from the QR code, then logs in with a TOTP code and with a recovery code', {
    timeout: 90_000,
  }, async () => {
    admin = await newPage();
    const blocked: string[] = [];
    admin.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    await logIn(admin, 'headmod');
    await admin.waitForURL(`${base}/panel/`);
    await admin.click('a.user');
    await admin.waitForURL(`${base}/panel/account`);
    await admin.click('#two-factor-start button');
    const qr = await admin.waitForSelector('#two-factor-qr');
    expect(await qr.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(
      100,
    );
    expect(blocked).toEqual([]);
    secret = (await admin.textContent('#two-factor-secret'))!.replaceAll(' ', '');
    await shot(admin, 'account-two-factor');
    await admin.fill('#two-factor-confirm input[name="code"]', await generate({ secret }));
    await admin.click('#two-factor-confirm button');
    await admin.waitForSelector('#recovery-codes');
    recoveryCodes = await admin.$$eval('#recovery-codes code', (codes) => codes.map((code) => code.textContent ?? ''));
    expect(recoveryCodes).toHaveLength(10);
    expect(await admin.textContent('[data-field="two-factor"]')).toBe('on');

    await admin.click('form[action="/panel/logout"] button');
    await admin.waitForURL(/\/panel\/login/);
    // The code of the set-up is spent; the app's next one (within the accepted window) is not.
    await logIn(
      admin,
      'headmod',
      () => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }),
      () => shot(admin, 'login-code'),
    );
    await admin.waitForURL(`${base}/panel/`);

    const spare = await newPage();
    await logIn(spare, 'headmod', async () => recoveryCodes[0]!);
    await spare.waitForURL(`${base}/panel/`);
    expect(await spare.textContent('.who .user')).toContain('headmod');
    await spare.context().close();
  });

  it("keeps the owner's browser free of strangers' wrong passwords from other addresses; a new browser meets the limit", {
    timeout: 90_000,
  }, async () => {
    for (let n = 2; n <= 6; n += 1) {
      const address = `127.0.0.${n}`;
      const form = await requestFrom(address, `${base}/panel/login`);
      const token = /name="_login" value="([^"]+)"/.exec(form.body)![1]!;
      const cookie = String(form.headers['set-cookie']).split(';')[0]!;
      const wrong = await requestFrom(address, `${base}/panel/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ _login: token, username: 'headmod', password: 'a stranger guessing' }).toString(),
      });
      expect(wrong.status).toBe(401);
    }
    // The owner's browser logged in before: its device cookie keeps it out of the username's limit.
    await admin.click('form[action="/panel/logout"] button');
    await admin.waitForURL(/\/panel\/login/);
    // (The app's codes of this step and the next are spent by now: a recovery code stands in for the next one.)
    await logIn(admin, 'headmod', async () => recoveryCodes[1]!);
    await admin.waitForURL(`${base}/panel/`);

    const newBrowser = await newPage();
    await logIn(newBrowser, 'headmod');
    expect(await newBrowser.textContent('[role="alert"]')).toContain('too many failed logins');
    await newBrowser.context().close();
  });

  it('ends the live feed of a dashboard after a logout, a disable, a password reset and a role change', {
    timeout: 120_000,
  }, async () => {
    const leaving = await dashboardOf('leaving');
    const otherTab = await leaving.context().newPage();
    await otherTab.goto(`${base}/panel/players`);
    await Promise.all([nextLiveAnswer(leaving, 303), otherTab.click('form[action="/panel/logout"] button')]);
    await leaving.waitForSelector('#live-status[data-state="closed"]');

    const idOf = async (username: string) => (await service.context.stores.panelAccounts.findByUsername(username))!.id;
    admin.on('dialog', (dialog) => void dialog.accept());

    const disabled = await dashboardOf('disabled');
    await admin.goto(`${base}/panel/accounts`);
    await Promise.all([
      nextLiveAnswer(disabled, 303),
      admin.click(`form[action="/panel/accounts/${await idOf('disabled')}/disable"] button`),
    ]);

    const reset = await dashboardOf('reset');
    await admin.goto(`${base}/panel/accounts`);
    const resetForm = `form[action="/panel/accounts/${await idOf('reset')}/password"]`;
    await admin.fill(`${resetForm} input[name="password"]`, 'another long password');
    await Promise.all([nextLiveAnswer(reset, 303), admin.click(`${resetForm} button`)]);

    const demoted = await dashboardOf('demoted');
    await admin.goto(`${base}/panel/accounts`);
    const roleForm = `form[action="/panel/accounts/${await idOf('demoted')}/role"]`;
    await admin.selectOption(`${roleForm} select`, 'viewer');
    await Promise.all([nextLiveAnswer(demoted, 200), admin.click(`${roleForm} button`)]);
    await demoted.waitForSelector('#live-status[data-state="open"]');
    await ban('seen with the new role');
    const row = await demoted.waitForSelector('tr:has-text("seen with the new role")', { timeout: 10_000 });
    expect(await row.textContent()).toContain(TARGET);
    // The ended feeds never got it.
    for (const page of [leaving, disabled, reset]) {
      expect(await page.locator('tr:has-text("seen with the new role")').count()).toBe(0);
    }
  });
});
