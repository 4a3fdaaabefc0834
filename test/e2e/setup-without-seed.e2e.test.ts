import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runServiceCli, type ServiceCliProcess, startServiceCli } from '../service/helpers/service-cli.js';
import { closeBrowsers, describeInBrowser, launchBrowser, screenshotPath } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { HOSTS, type PlayerBot } from './helpers/hosts.js';
import { waitFor } from './helpers/wait.js';

const PASSWORD = 'first admin password';
const host = HOSTS.find((candidate) => candidate.name.startsWith('flying-squid'))!;

/**
 * docs/operators/postgresql.md, "From an empty database to a working network", followed to the
 * letter: an empty PostgreSQL database, then only the built `bailiff service` commands (no seed
 * file): start the service, add a network, add a server (its key printed once), create the first
 * admin. A game server (flying-squid with Bailiff) started with that key enforces a ban the admin
 * makes in the panel (Chromium): the player is kicked, and refused when joining again.
 */
describeInBrowser('setting up a network on PostgreSQL without a seed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-setup-'));
  let database: TestDatabase;
  let service: ServiceCliProcess;
  let game: RunningGameServer;
  let browser: Browser;
  let apiKey: string;
  const bots: PlayerBot[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    // The docs give the URL in the environment, so its password stays out of `ps`.
    const env = { BAILIFF_DATABASE_URL: database.url };
    service = await startServiceCli(['--port', '0'], env);

    const network = await runServiceCli(['network', 'add', '--name', 'main'], env);
    expect(network).toMatchObject({ code: 0, stderr: '' });
    const server = await runServiceCli(['server', 'add', '--network', 'main', '--name', 'survival'], env);
    expect(server).toMatchObject({ code: 0, stderr: '' });
    apiKey = /^[A-Za-z0-9_-]{43}$/m.exec(server.stdout)![0];
    const admin = await runServiceCli(
      ['create-admin', '--network', 'main', '--user', 'headadmin'],
      env,
      `${PASSWORD}\n`,
    );
    expect(admin).toMatchObject({ code: 0, stderr: '' });

    writeTestServerFolder(dir, undefined, host.serverSettings);
    game = await startGameServerProcess(dir, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: apiKey });
    await waitFor('the stream to connect', () => game.output().includes('"state":"connected"'), 30_000);
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await closeBrowsers();
    await game?.stop();
    await service?.kill();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('enforces on the game server a ban the first admin made in the panel', { timeout: 120_000 }, async () => {
    const joined = await host.join(game.port, 'Griefer1');
    if (!joined.joined) throw new Error(`Griefer1 was refused: ${joined.reason}`);
    bots.push(joined.bot);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${service.url}/panel/login`);
    await page.fill('input[name="username"]', 'headadmin');
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await page.waitForURL(`${service.url}/panel/`);

    await page.goto(`${service.url}/panel/servers`);
    expect(await page.textContent('tr[data-server="survival"]')).toContain('connected');
    await page.screenshot({ path: screenshotPath('servers-managed.png'), fullPage: true });
    // A second server from the panel: its key is on the page that follows, once.
    await page.fill('#add-server input[name="name"]', 'lobby');
    await page.click('#add-server button[type="submit"]');
    const lobbyKey = (await page.textContent('#new-key-value'))!;
    await page.screenshot({ path: screenshotPath('servers-new-key.png'), fullPage: true });
    const types = await fetch(`${service.url}/v1/minecraft/punishments/types`, { headers: { 'x-api-key': lobbyKey } });
    expect(types.status).toBe(200);

    await page.goto(`${service.url}/panel/players?q=Griefer1`);
    await page.waitForURL(/\/panel\/players\/[0-9a-f-]{36}$/);
    await page.selectOption('select[name="typeOrdinal"]', '2');
    await page.fill('#punish-form input[name="reason"]', 'griefing, banned from a panel set up without a seed');
    await page.click('#punish-form button[type="submit"]');
    await page.waitForSelector('#final-length');
    await page.click('button.danger');
    await page.waitForURL(/#punishment-/);

    await waitFor('the bot to be kicked by the ban', () => joined.bot.kickedWith, 20_000);
    expect(joined.bot.kickedWith).toContain('banned from a panel set up without a seed');
    const again = await host.join(game.port, 'Griefer1');
    if (again.joined) bots.push(again.bot);
    expect(again).toMatchObject({ joined: false });
    await context.close();
  });
});
