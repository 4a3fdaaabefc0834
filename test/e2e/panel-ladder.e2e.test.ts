import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../src/service/index.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { offlineUuid } from './helpers/bots.js';
import { API_KEY, NETWORK, startTestService } from './helpers/service.js';

const PASSWORD = 'e2e staff password 42';
const PLAYER = 'Griefer';
const DAY_MS = 86_400_000;

/**
 * Issue 34 point 3 in Chromium: the owner sets the warning ladder on its page (a bad row refused
 * naming the field), a moderator's warning confirm page says what the warning will trigger, and
 * confirming it leaves the warning and the ladder's mute, issued by System, on the player's page.
 */
describeInBrowser('the warning ladder page and a crossing warning from the panel in Chromium', () => {
  let service: RunningService;
  let browser: Browser;
  let dir: string;
  let networkId: number;
  const uuid = offlineUuid(PLAYER);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-panel-ladder-e2e-'));
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: [PLAYER] });
    const { stores, clock } = service.context;
    networkId = (await stores.networks.findNetwork(NETWORK))!;
    for (const [username, role] of [
      ['owner', 'admin'],
      ['mod', 'moderator'],
    ] as const) {
      await stores.panelAccounts.create({
        networkId,
        username,
        passwordHash: await hashPassword(PASSWORD),
        role,
        nowMs: clock.now(),
      });
    }
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await closeBrowsers();
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function loggedIn(username: string): Promise<Page> {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name=username]', username);
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form button[type=submit]');
    await page.waitForURL(`${service.url}/panel/`);
    return page;
  }

  it('sets the ladder (refusing a zero threshold by name), then a crossing warning mutes by System', async () => {
    const owner = await loggedIn('owner');
    await owner.goto(`${service.url}/panel/ladder`);
    expect(await owner.locator('#no-ladder').textContent()).toContain('no warning ladder');
    const rows = owner.locator('tr.ladder-row');
    await owner.fill('input[name=name]', 'Chat conduct');
    await owner.fill('input[name=lifetimeDays]', '30');
    await rows.nth(0).locator('input[name=warnings]').fill('0');
    await rows.nth(0).locator('input[name=duration]').fill('1d');
    await owner.click('#ladder-form button[type=submit]');
    expect(await owner.locator('#ladder-error').textContent()).toContain('steps[0].warnings: must be at least 1');
    expect(await owner.locator('tr.ladder-row[data-row="0"] .field-error').textContent()).toContain('at least 1');

    await rows.nth(0).locator('input[name=warnings]').fill('3');
    await rows.nth(1).locator('input[name=warnings]').fill('5');
    await rows.nth(1).locator('select[name=type]').selectOption('ban');
    await rows.nth(1).locator('input[name=duration]').fill('7d');
    await owner.click('#ladder-form button[type=submit]');
    await owner.waitForSelector('#ladder-notice');
    const steps = await owner
      .locator('#ladder-steps tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent).join(' | ')),
      );
    expect(steps).toEqual(['3 | Manual Mute | 1d', '5 | Manual Ban | 7d']);
    await owner.screenshot({ path: screenshotPath('ladder.png'), fullPage: true });
    expect(await service.context.stores.warningLadders.ladderOf(networkId)).toMatchObject({
      name: 'Chat conduct',
      warningLifetimeMs: 30 * DAY_MS,
    });

    // Two warnings from a game server first.
    for (const n of [1, 2]) {
      const answer = await fetch(`${service.url}/v1/minecraft/punishments/dynamic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify({
          targetUuid: uuid,
          typeOrdinal: 0,
          status: 'warning',
          issuerName: 'Mod',
          reason: `spam ${n}`,
        }),
      });
      expect(answer.status).toBe(200);
    }

    const mod = await loggedIn('mod');
    expect(await mod.locator('nav a', { hasText: 'Ladder' }).count()).toBe(1);
    await mod.goto(`${service.url}/panel/ladder`);
    expect(await mod.locator('#ladder-form').count()).toBe(0);
    await mod.goto(`${service.url}/panel/players/${uuid}`);
    await mod.selectOption('#punish-form select[name=typeOrdinal]', 'warning');
    await mod.fill('#punish-form input[name=reason]', 'spam again');
    await mod.click('#punish-form button[type=submit]');
    const next = mod.locator('#next-warning');
    expect((await next.textContent())?.replace(/\s+/g, ' ')).toContain(
      'warning number 3: it also issues Manual Mute (1d), by System',
    );
    await mod.screenshot({ path: screenshotPath('confirm-warning-ladder.png'), fullPage: true });
    await mod.click('form.confirm button[type=submit]');
    await mod.waitForURL(new RegExp(`/panel/players/${uuid}`));
    const history = await mod.locator('body').textContent();
    expect(history).toContain('Warning ladder "Chat conduct": 3 warnings within 30 days');

    const rows3 = await service.context.stores.playerLookup.punishmentsOf(networkId, uuid, 50);
    expect(rows3.filter((row) => row.status === 'warning')).toHaveLength(3);
    expect(rows3.filter((row) => row.issuer_name === 'System').map((row) => [row.type_ordinal, row.duration])).toEqual([
      [1, DAY_MS],
    ]);
  });
});
