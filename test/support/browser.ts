import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { describe } from 'vitest';

/** Debian's Chromium; the browser tests drive it through playwright-core. */
export const CHROMIUM_PATH = process.env.BAILIFF_CHROMIUM ?? '/usr/bin/chromium';

/** The prefix of every browser test's describe name; the summary reporter looks for it. */
export const BROWSER_TEST_PREFIX = '[browser]';

export const HOW_TO_RUN_BROWSER_TESTS =
  "install Debian's Chromium (as root: apt-get install -y chromium) or point BAILIFF_CHROMIUM at a Chromium binary, then run npm test again";

export type BrowserAvailability = { ok: true } | { ok: false; reason: string };

export function browserAvailable(): BrowserAvailability {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
    return { ok: true };
  } catch {
    return { ok: false, reason: `no Chromium at ${CHROMIUM_PATH}` };
  }
}

const launched = new Set<Browser>();

/** Headless Chromium with no background traffic; close it with `closeBrowsers()` in `afterAll`. */
export async function launchBrowser(): Promise<Browser> {
  const availability = browserAvailable();
  if (!availability.ok)
    throw new Error(`cannot launch the browser: ${availability.reason}; ${HOW_TO_RUN_BROWSER_TESTS}`);
  const args = ['--disable-background-networking', '--disable-dev-shm-usage'];
  // Chromium refuses to start its sandbox as root (CI runs as root).
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args, timeout: 30_000 });
  launched.add(browser);
  browser.on('disconnected', () => launched.delete(browser));
  return browser;
}

/** Closes every browser `launchBrowser` started in this process. */
export async function closeBrowsers(): Promise<void> {
  await Promise.all([...launched].map((browser) => browser.close()));
  launched.clear();
}

/**
 * A describe block that runs only where Chromium is installed; elsewhere its tests are skipped and
 * the summary reporter says once, loudly, that they did not run and how to run them.
 */
export function describeInBrowser(name: string, body: () => void): void {
  describe.skipIf(!browserAvailable().ok)(`${BROWSER_TEST_PREFIX} ${name}`, body);
}

/**
 * Where a browser test saves a screenshot of a page: `docs/panel/screenshots/` when
 * `BAILIFF_SCREENSHOTS=1` (to refresh the pictures the docs show), else a temporary folder, so a
 * test run leaves the repository's files as they were.
 */
export function screenshotPath(fileName: string): string {
  const folder =
    process.env.BAILIFF_SCREENSHOTS === '1'
      ? join(process.cwd(), 'docs', 'panel', 'screenshots')
      : join(tmpdir(), 'bailiff-screenshots');
  mkdirSync(folder, { recursive: true });
  return join(folder, fileName);
}
