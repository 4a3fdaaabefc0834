import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdmin } from '../../src/service/panel/create-admin.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { offlineUuid } from './helpers/bots.js';
import { NETWORK, startTestService } from './helpers/service.js';

const PASSWORD = 'panel notes password';
const GRIEFER = offlineUuid('Griefer1');

/**
 * Staff notes, punishment comments and staff statistics in Chromium against the reference service:
 * an admin notes a player and comments on a punishment, a moderator sees both but may change neither,
 * the admin edits the note, and the dashboard counts each staff member's punishments over a range.
 */
describeInBrowser('staff notes and statistics in the panel', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-panel-notes-'));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let networkId = 0;

  const shot = (page: Page, name: string) => page.screenshot({ path: screenshotPath(`${name}.png`), fullPage: true });
  async function loggedIn(username: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name="username"]', username);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${service.url}/panel/`);
    return page;
  }

  beforeAll(async () => {
    const dbPath = join(dir, 'service.db');
    service = await startTestService({
      dbPath,
      players: ['Griefer1', 'Bystander1'],
      punishments: [{ id: 'ban-1', targetUuid: GRIEFER, typeOrdinal: 2, reason: 'x-ray mining' }],
    });
    await createAdmin({ dbPath, network: NETWORK, username: 'headmod', password: PASSWORD });
    const { stores } = service.context;
    networkId = (await stores.networks.findNetwork(NETWORK))!;
    const passwordHash = await hashPassword(PASSWORD);
    await stores.panelAccounts.create({
      networkId,
      username: 'mod2',
      passwordHash,
      role: 'moderator',
      nowMs: Date.now(),
    });
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await closeBrowsers();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('notes a player and comments on a punishment; another moderator sees both and may change neither', {
    timeout: 90_000,
  }, async () => {
    const admin = await loggedIn('headmod');
    await admin.goto(`${service.url}/panel/players/${GRIEFER}`);
    expect(await admin.textContent('[data-field="notes-link"]')).toBe('0');
    await admin.fill('#note-form textarea[name="text"]', 'Asked three players for their <b>passwords</b>');
    await admin.click('#note-form button[type="submit"]');
    await admin.waitForURL(/#note-\d+$/);
    expect(await admin.textContent('[data-field="note-count"]')).toBe('1');
    expect(await admin.textContent('#player-notes .note-text')).toBe('Asked three players for their <b>passwords</b>');

    await admin.click('#punishment-ban-1 details.comments summary');
    await admin.fill('#punishment-ban-1 .comment-form input[name="text"]', 'Seen on the replay at 14:02');
    await admin.click('#punishment-ban-1 .comment-form button[type="submit"]');
    await admin.waitForURL(/#note-\d+$/);
    expect(await admin.textContent('#punishment-ban-1 details.comments summary')).toBe('Staff comments (1)');
    expect(await admin.textContent('#punishment-ban-1 .note-text')).toBe('Seen on the replay at 14:02');
    await shot(admin, 'player-notes');

    const stored = await service.context.stores.staffNotes.of(networkId, 'player', GRIEFER, 10);
    expect(stored.map((note) => [note.authorName, note.authorVia])).toEqual([['headmod', 'panel']]);

    const moderator = await loggedIn('mod2');
    await moderator.goto(`${service.url}/panel/players/${GRIEFER}`);
    expect(await moderator.textContent('#player-notes .note-text')).toBe(
      'Asked three players for their <b>passwords</b>',
    );
    expect(await moderator.locator('.note-edit').count()).toBe(0);
    expect(await moderator.locator('form[action$="/delete"]').count()).toBe(0);

    const noteId = stored[0]!.id;
    await admin.click(`#note-${noteId} .note-edit summary`);
    await admin.fill(`#note-${noteId} textarea[name="text"]`, 'Asked four players for their passwords');
    await admin.click(`#note-${noteId} .note-edit button[type="submit"]`);
    await admin.waitForURL(new RegExp(`#note-${noteId}$`));
    expect(await admin.textContent(`#note-${noteId} .note-text`)).toBe('Asked four players for their passwords');
    expect((await service.context.stores.staffNotes.find(networkId, noteId))?.editedAtMs).not.toBeNull();
  });

  it('the dashboard counts punishments per staff member over the chosen range', { timeout: 60_000 }, async () => {
    const admin = await loggedIn('headmod');
    expect(await admin.textContent('#staff-stats tr[data-staff="Console"] td:nth-child(2)')).toBe('1');
    await admin.fill('#stats-range input[name="from"]', '2020-01-01');
    await admin.fill('#stats-range input[name="to"]', '2020-01-31');
    await admin.click('#stats-range button[type="submit"]');
    await admin.waitForURL(/from=2020-01-01&to=2020-01-31/);
    expect(await admin.locator('#staff-stats').count()).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    await admin.goto(`${service.url}/panel/?from=${today}&to=${today}#staff-statistics`);
    expect(await admin.textContent('#staff-stats tr[data-staff="Console"] td:nth-child(2)')).toBe('1');
    await shot(admin, 'staff-statistics');
  });
});
