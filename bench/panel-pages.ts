import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDb } from '../src/db/open-db.js';
import { createAdmin } from '../src/service/panel/create-admin.js';
import { hashPassword } from '../src/service/panel/passwords.js';
import { openSqliteStorage } from '../src/service/store/open-storage.js';
import { FIXTURE_NETWORK, NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { PanelClient } from '../test/service/helpers/panel-client.js';
import { browserAvailable, closeBrowsers, launchBrowser } from '../test/support/browser.js';
import { type BenchResult, summarize } from './result.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';
import { cpuOf, startServiceProcess, stopServiceProcess } from './support/service-process.js';

const WARM_UP = 30;
const SAMPLES = 500;
const PAINTS = 25;
const PASSWORD = 'bench panel password';
/** Days of the staff statistics' range in their row. */
const STATS_DAYS = 90;
/**
 * The network's size: 1,000,000 punishments, or `BAILIFF_BENCH_PANEL_PUNISHMENTS` (a smaller
 * fixture on a busy machine: the same pages and statements, fewer rows).
 */
function networkShape() {
  const stored = Number(process.env.BAILIFF_BENCH_PANEL_PUNISHMENTS ?? NETWORK_AT_SCALE.stored);
  if (!Number.isInteger(stored) || stored < 10_000) throw new Error('BAILIFF_BENCH_PANEL_PUNISHMENTS: at least 10000');
  return { ...NETWORK_AT_SCALE, stored, active: Math.min(NETWORK_AT_SCALE.active, stored / 10) };
}
/** A different range each request (ending 0 to 199 days ago, 90 to 92 days long): each counted afresh, never from the cache. */
function freshRange(n: number): string {
  const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const until = today - (n % 200) * 86_400_000;
  const since = until - (STATS_DAYS - 1 + Math.floor(n / 200)) * 86_400_000;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return `from=${day(since)}&to=${day(until)}`;
}

async function timePages(client: PanelClient, paths: (n: number) => string): Promise<{ p50: number; p99: number }> {
  const durations: number[] = [];
  for (let n = 0; n < WARM_UP + SAMPLES; n += 1) {
    const began = performance.now();
    const page = await client.get(paths(n));
    const took = performance.now() - began;
    if (page.status !== 200) throw new Error(`${paths(n)} answered ${page.status}`);
    if (n >= WARM_UP) durations.push(took);
  }
  return summarize(durations);
}

/** First contentful paint of each page in a fresh tab of headless Chromium, logged in by cookie. */
async function firstPaints(url: string, sessionId: string, paths: string[]): Promise<{ p50: number; p99: number }> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'bailiff_panel', value: sessionId, url: `${url}/panel/` }]);
    const paints: number[] = [];
    for (let n = 0; n < PAINTS + 2; n += 1) {
      const page = await context.newPage();
      await page.goto(`${url}${paths[n % paths.length]}`, { waitUntil: 'load' });
      const entry = await page.waitForFunction(
        () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
        undefined,
        { timeout: 10_000 },
      );
      const paint = (await entry.jsonValue()) as number;
      await page.close();
      if (n >= 2) paints.push(paint);
    }
    return summarize(paints);
  } finally {
    await closeBrowsers();
  }
}

/**
 * The fixture's rows were written without the expiry announcer: a service started on it first
 * announces hundreds of thousands of ended punishments, in the background of every figure. A
 * network that has run for a while has announced them, as this makes it.
 */
function markEndedAsAnnounced(path: string): void {
  const db = openDb(path);
  try {
    db.prepare(
      `UPDATE service_punishments SET expiry_announced_at = 0
       WHERE status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL
         AND started_at + duration <= ?`,
    ).run(Date.now());
  } finally {
    db.close();
  }
}

/** A `viewer` account (no `see-ip`: every page's data goes through the address redactor). */
async function addViewer(path: string, username: string): Promise<void> {
  const storage = await openSqliteStorage(path);
  try {
    const { stores } = storage;
    const networkId = await stores.networks.findNetwork(FIXTURE_NETWORK);
    if (networkId === undefined) throw new Error(`no network ${FIXTURE_NETWORK} in the fixture`);
    const passwordHash = await hashPassword(PASSWORD);
    await stores.panelAccounts.create({ networkId, username, passwordHash, role: 'viewer', nowMs: Date.now() });
  } finally {
    await storage.close();
  }
}

/** Chat lines of the ticket page's report: the most a report may carry. */
const CHAT_LINES = 100;
const REPORT_ID = 'bench-chat-report';

/**
 * A chat report of {@link CHAT_LINES} lines about a punished player of the fixture, with two of
 * their punishments linked to it: the ticket page reads the ticket, its lines, replies and links.
 */
async function addChatReport(path: string, reportedUuid: string, reporterUuid: string): Promise<string> {
  const storage = await openSqliteStorage(path);
  try {
    const { stores } = storage;
    const networkId = (await stores.networks.findNetwork(FIXTURE_NETWORK))!;
    const nowMs = Date.now();
    const reportedName = (await stores.players.findName(networkId, reportedUuid)) ?? 'Reported';
    await stores.tickets.create(networkId, {
      id: REPORT_ID,
      type: 'chat',
      subject: `Chat report: ${reportedName}`,
      description: 'advertising another server',
      priority: 'normal',
      creatorUuid: reporterUuid,
      creatorName: 'Reporter',
      reportedPlayerUuid: reportedUuid,
      reportedPlayerName: reportedName,
      tags: [],
      createdServer: 'lobby',
      replayUrl: null,
      chatMessages: Array.from({ length: CHAT_LINES }, (_, n) => ({
        playerName: reportedName,
        message: `line ${n}: join play.example.net for free ranks`,
        sentAt: new Date(nowMs - (CHAT_LINES - n) * 5000).toISOString(),
      })),
      createdAtMs: nowMs,
    });
    for (const row of await stores.playerLookup.punishmentsOf(networkId, reportedUuid, 2)) {
      await stores.tickets.linkPunishment(networkId, REPORT_ID, row.id, nowMs);
    }
    return REPORT_ID;
  } finally {
    await storage.close();
  }
}

/**
 * The panel with 1,000,000 stored punishments (the login-check fixture): the dashboard (charts of
 * 30 days, recent punishments, open tickets), player pages and a chat report's ticket page answered by a service in its own
 * process, sequentially over HTTP; and first contentful paint of both in headless Chromium.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-panel-'));
  try {
    const shape = networkShape();
    const fixture = await networkFixtureCopy(shape, dir, Date.now());
    await createAdmin({ dbPath: fixture.path, network: FIXTURE_NETWORK, username: 'bench', password: PASSWORD });
    await addViewer(fixture.path, 'viewer');
    markEndedAsAnnounced(fixture.path);
    const [reported, reporter] = fixture.facts.punishedPlayers;
    const reportId = await addChatReport(fixture.path, reported!, reporter!);
    const { child, url } = await startServiceProcess(fixture.path);
    try {
      const client = new PanelClient(url);
      const login = await client.login('bench', PASSWORD);
      if (login.status !== 303) throw new Error(`login answered ${login.status}`);
      const players = fixture.facts.punishedPlayers;
      const cpuBefore = await cpuOf(child);
      const dashboard = await timePages(client, () => '/panel/');
      const cpuBetween = await cpuOf(child);
      const player = await timePages(client, (n) => `/panel/players/${players[n % players.length]}`);
      const cpuAfter = await cpuOf(child);
      // The staff statistics over about 90 days (about 123,000 of the 1,000,000 punishments): the dashboard
      // with a range, a different one each request so none is answered from the 10-minute cache.
      const cpuBeforeStats = await cpuOf(child);
      const stats = await timePages(client, (n) => `/panel/?${freshRange(n)}`);
      const cpuAfterStats = await cpuOf(child);
      const viewer = new PanelClient(url);
      if ((await viewer.login('viewer', PASSWORD)).status !== 303) throw new Error('the viewer could not log in');
      const viewerPlayer = await timePages(viewer, (n) => `/panel/players/${players[n % players.length]}`);
      const cpuViewer = await cpuOf(child);
      const ticket = await timePages(client, () => `/panel/tickets/${reportId}`);
      const cpuTicket = await cpuOf(child);
      const perPage = (cpuUs: number) => cpuUs / (WARM_UP + SAMPLES) / 1000;
      const load = `load ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
      const notes = `${shape.stored.toLocaleString('en')} punishments stored; sequential GETs, whole page; ${load}`;
      const results: BenchResult[] = [
        { name: 'dashboard page (server)', unit: 'ms', ...dashboard, target: 'p99 <= 50 ms', notes },
        { name: 'player page (server)', unit: 'ms', ...player, target: 'p99 <= 50 ms', notes },
        {
          name: 'dashboard page: service CPU per page',
          unit: 'ms',
          value: perPage(cpuBetween - cpuBefore),
          notes: 'user + system CPU of the service process, whatever else runs on the machine',
        },
        {
          name: 'player page: service CPU per page',
          unit: 'ms',
          value: perPage(cpuAfter - cpuBetween),
          notes: 'user + system CPU of the service process, whatever else runs on the machine',
        },
        {
          name: `dashboard with staff statistics of ${STATS_DAYS} days, each range counted afresh (server)`,
          unit: 'ms',
          ...stats,
          target: 'p99 <= 50 ms',
          notes: `punishments (per issuer and day, kept on write), closed tickets and accepted appeals per staff member (40 issuers), a range not in the cache; ${notes}`,
        },
        {
          name: 'dashboard with staff statistics: service CPU per page',
          unit: 'ms',
          value: perPage(cpuAfterStats - cpuBeforeStats),
          notes: 'user + system CPU of the service process, whatever else runs on the machine',
        },
        {
          name: 'player page of a role without see-ip (server)',
          unit: 'ms',
          ...viewerPlayer,
          target: 'p99 <= 50 ms',
          notes: `every string of the page's data through the address redactor; ${notes}`,
        },
        {
          name: 'player page of a role without see-ip: service CPU per page',
          unit: 'ms',
          value: perPage(cpuViewer - cpuAfter),
          notes: 'user + system CPU of the service process, whatever else runs on the machine',
        },
        {
          name: `ticket page of a chat report with ${CHAT_LINES} lines (server)`,
          unit: 'ms',
          ...ticket,
          target: 'p99 <= 50 ms',
          notes: `the lines, both players' links, 2 linked punishments and the punish form; ${notes}`,
        },
        {
          name: `ticket page of a chat report with ${CHAT_LINES} lines: service CPU per page`,
          unit: 'ms',
          value: perPage(cpuTicket - cpuViewer),
          notes: 'user + system CPU of the service process, whatever else runs on the machine',
        },
      ];
      const chromium = browserAvailable();
      if (chromium.ok) {
        const paint = await firstPaints(url, client.cookie('bailiff_panel')!, [
          '/panel/',
          `/panel/players/${players[0]}`,
        ]);
        results.push({
          name: 'first contentful paint (Chromium)',
          unit: 'ms',
          ...paint,
          target: 'p99 <= 500 ms',
          notes: `headless, fresh tab each, dashboard and player page alternately, ${PAINTS} loads; ${load}`,
        });
      } else {
        results.push({
          name: 'first contentful paint (Chromium)',
          unit: 'ms',
          notes: `not measured: ${chromium.reason}`,
        });
      }
      return results;
    } finally {
      await stopServiceProcess(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
