import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../src/service/index.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { closeBrowsers, describeInBrowser, launchBrowser } from '../support/browser.js';
import { NETWORK, startTestService } from './helpers/service.js';

const PASSWORD = 'e2e staff password 42';

/**
 * Issue 31: an import running on an instance that is gone (its lease far from over) is cancelled
 * from the panel's migration page in Chromium: the Cancel button asks first, then the upload shows
 * failed with who cancelled it, and the button is gone.
 */
describeInBrowser('cancelling a migration import from the panel in Chromium', () => {
  let service: RunningService;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-panel-cancel-e2e-'));
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: [] });
    const { stores, clock } = service.context;
    const networkId = (await stores.networks.findNetwork(NETWORK))!;
    await stores.panelAccounts.create({
      networkId,
      username: 'owner',
      passwordHash: await hashPassword(PASSWORD),
      role: 'admin',
      nowMs: clock.now(),
    });
    await stores.migrations.startUpload({
      id: 'running-elsewhere',
      networkId,
      serverId: null,
      uploadedBy: 'someone',
      fileSize: 100,
      total: 5_000,
      nowMs: clock.now(),
      lease: { owner: 'another-instance.1', expiresAtMs: clock.now() + 3_600_000 },
    });
    await stores.migrations.storeChunk('running-elsewhere', 0, Buffer.from('{"players": []}'));
    await stores.migrations.markStored('running-elsewhere', 1, 'queued', clock.now());
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await closeBrowsers();
    await service?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('asks, cancels, and shows the upload failed with who cancelled it', async () => {
    const page = await (await browser.newContext()).newPage();
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.accept();
    });
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name=username]', 'owner');
    await page.fill('input[name=password]', PASSWORD);
    await page.click('form button[type=submit]');
    await page.waitForURL(`${service.url}/panel/`);

    await page.goto(`${service.url}/panel/migration`);
    const row = page.locator('tr[data-upload="running-elsewhere"]');
    expect(await row.locator('.badge').textContent()).toBe('processing');
    await row.locator('button', { hasText: 'Cancel' }).click();
    await page.waitForSelector('tr[data-upload="running-elsewhere"] .badge:text("failed")');
    expect(dialogs).toEqual(['Cancel this import? What it imported so far stays.']);
    expect(await row.textContent()).toContain('cancelled by panel (owner)');
    expect(await row.locator('button', { hasText: 'Cancel' }).count()).toBe(0);
  });
});
