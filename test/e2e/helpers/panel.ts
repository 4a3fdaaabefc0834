import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { createAdmin } from '../../../src/service/panel/create-admin.js';
import { closeBrowsers, launchBrowser, screenshotPath } from '../../support/browser.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './game-server.js';
import { HOSTS, type PlayerBot } from './hosts.js';
import { API_KEY, NETWORK, startTestService } from './service.js';
import { waitFor } from './wait.js';

export const FLYING_SQUID = HOSTS.find((candidate) => candidate.name.startsWith('flying-squid'))!;

/** Signs in on the panel's login form and waits for the dashboard. */
export async function signInToPanel(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/panel/login`);
  await page.fill('input[name="username"]', username);
  await page.fill('input[name="password"]', password);
  await page.click('button[type="submit"]');
  await page.waitForURL(`${baseUrl}/panel/`);
}

/** A full-page screenshot into the panel docs' screenshot folder. */
export function panelShot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: screenshotPath(`${name}.png`), fullPage: true });
}

export interface PanelWithGameServer {
  service: Awaited<ReturnType<typeof startTestService>>;
  game: RunningGameServer;
  browser: Browser;
  /** Bots the test joined; quit by `close()`. */
  bots: PlayerBot[];
  close(): Promise<void>;
}

/**
 * Every real part of a panel test: the reference service (with `players` known and a panel admin),
 * `bailiff start` running flying-squid with Bailiff connected to its stream, and Chromium.
 */
export async function startPanelWithGameServer(options: {
  dirPrefix: string;
  players: string[];
  admin: { username: string; password: string };
}): Promise<PanelWithGameServer> {
  const dir = mkdtempSync(join(tmpdir(), options.dirPrefix));
  const dbPath = join(dir, 'service.db');
  const bots: PlayerBot[] = [];
  let service: PanelWithGameServer['service'] | undefined;
  let game: RunningGameServer | undefined;
  const close = async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await closeBrowsers();
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    service = await startTestService({ dbPath, players: options.players, uuidOf: FLYING_SQUID.uuidOf });
    await createAdmin({ dbPath, network: NETWORK, ...options.admin });
    writeTestServerFolder(dir, undefined, FLYING_SQUID.serverSettings);
    game = await startGameServerProcess(dir, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    await waitFor('the stream to connect', () => game!.output().includes('"state":"connected"'));
    const browser = await launchBrowser();
    return { service, game, browser, bots, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Starts every real part of a panel test before the suite's tests and closes it after them. The
 * answer's fields read the started parts, so read them inside tests, not when the suite is defined.
 */
export function usePanelWithGameServer(options: Parameters<typeof startPanelWithGameServer>[0]): PanelWithGameServer {
  let setup: PanelWithGameServer | undefined;
  beforeAll(async () => {
    setup = await startPanelWithGameServer(options);
  }, 90_000);
  afterAll(async () => {
    await setup?.close();
  });
  const started = () => {
    if (!setup) throw new Error('the panel and game server are not started yet');
    return setup;
  };
  return {
    get service() {
      return started().service;
    },
    get game() {
      return started().game;
    },
    get browser() {
      return started().browser;
    },
    get bots() {
      return started().bots;
    },
    close: () => started().close(),
  };
}

/** Joins `name` to the flying-squid server again and again until it is let in; its bot. */
export function joinOnceLetIn(what: string, port: number, name: string): Promise<PlayerBot> {
  return waitFor(
    what,
    async () => {
      const attempt = await FLYING_SQUID.join(port, name);
      return attempt.joined ? attempt.bot : undefined;
    },
    20_000,
    250,
  );
}
