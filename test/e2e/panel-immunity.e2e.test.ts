import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { createAdmin } from '../../src/service/panel/create-admin.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { offlineUuid } from './helpers/bots.js';
import { API_KEY, NETWORK, startTestService } from './helpers/service.js';

const PASSWORD = 'panel immunity password';

/**
 * Immunity weights in Chromium: the admin role is given weight 10 on the roles page; Elder, whose
 * server reported `bailiff.weight.20` at the login check, cannot be punished from the player page
 * (the target's weight named), Rookie (weight 5) can.
 */
describeInBrowser('immunity weights in the panel', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-immunity-panel-'));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let browser: Browser;
  const client = () => createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
  const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(`${name}.png`), fullPage: true });

  beforeAll(async () => {
    const dbPath = join(dir, 'service.db');
    service = await startTestService({ dbPath, players: ['Elder', 'Rookie'] });
    await createAdmin({ dbPath, network: NETWORK, username: 'boss', password: PASSWORD });
    for (const [name, weight] of [
      ['Elder', 20],
      ['Rookie', 5],
    ] as const) {
      await client().playerLogin({ minecraftUuid: offlineUuid(name), username: name, weight });
    }
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await closeBrowsers();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sets the admin role's weight, refuses Elder (20) with the weight named and punishes Rookie (5)", {
    timeout: 90_000,
  }, async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name="username"]', 'boss');
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${service.url}/panel/`);

    await page.goto(`${service.url}/panel/roles`);
    await page.fill('tr[data-role="admin"] input[name="weight"]', '10');
    await page.click('tr[data-role="admin"] [data-field="weight"] button[type="submit"]');
    await page.waitForURL(`${service.url}/panel/roles`);
    expect(await page.inputValue('tr[data-role="admin"] input[name="weight"]')).toBe('10');
    await shot(page, 'role-weights');

    await page.goto(`${service.url}/panel/players/${offlineUuid('Elder')}`);
    await page.selectOption('select[name="typeOrdinal"]', '2');
    await page.fill('#punish-form input[name="reason"]', 'griefing');
    await page.fill('#punish-form input[name="duration"]', '1d');
    await page.click('#punish-form button[type="submit"]');
    expect(await page.textContent('main')).toContain(
      'refused: Elder has immunity weight 20, and the weight of your role (admin) is 10; only a higher weight may punish them',
    );
    await shot(page, 'immunity-refused');

    await page.goto(`${service.url}/panel/players/${offlineUuid('Rookie')}`);
    await page.selectOption('select[name="typeOrdinal"]', '2');
    await page.fill('#punish-form input[name="reason"]', 'griefing');
    await page.fill('#punish-form input[name="duration"]', '1d');
    await page.click('#punish-form button[type="submit"]');
    await page.click('form.confirm button[type="submit"]');
    await page.waitForURL(/\/panel\/players\/[0-9a-f-]{36}#punishment-/);

    const issued = (await client().recentPunishments({ hours: 1 })).punishments;
    expect(issued.map((p) => [p.targetName, p.issuerName])).toEqual([['Rookie', 'boss']]);
    await context.close();
  });
});
