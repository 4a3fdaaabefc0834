import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bailiffConfigSchema } from '../plugin/config/schema.js';
import { ChecksInFlight } from '../plugin/enforcement/checks-in-flight.js';
import type { EnforcementContext } from '../plugin/enforcement/enforcement-context.js';
import { checkAtLogin, type LoginCheckDeps } from '../plugin/enforcement/login-check.js';
import { LoginCheckSupport } from '../plugin/enforcement/login-check-support.js';
import { PendingNotices } from '../plugin/enforcement/pending-notices.js';
import { onPreLogin } from '../plugin/enforcement/pre-login.js';
import { loadBundledMessages } from '../plugin/messages/load.js';
import { applyPunishment } from '../plugin/sync/apply-punishment.js';
import { createModerationClient } from '../src/api/client.js';
import { openDb } from '../src/db/open-db.js';
import { systemTimers } from '../src/ports/timers.js';
import { PreLoginEventImpl } from '../src/runtime/pre-login.js';
import { banPopulation } from '../test/e2e/helpers/ban-population.js';
import { joinBot, offlineUuid } from '../test/e2e/helpers/bots.js';
import { REPOSITORY_ROOT, startGameServerProcess, writeTestServerFolder } from '../test/e2e/helpers/game-server.js';
import { API_KEY, startTestService } from '../test/e2e/helpers/service.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';
import { fillCacheDatabase } from './support/cache-fixture.js';
import { benchEnforcementContext } from './support/enforcement-context.js';

const CACHED_PUNISHMENTS = 100_000;
const BATCH = 32;
const BATCHES = 20_000;
const CHECKS = 1000;
const RECENT_CALLS = 1000;
const SAMPLE = 50;

const toMicros = (start: bigint) => Number(process.hrtime.bigint() - start) / 1000;

/** The enforcement steps over a cache of 100,000 punishments (as `plugin-decisions`), with the bundled messages. */
function enforcementOver(path: string): EnforcementContext {
  return benchEnforcementContext(openDb(path), loadBundledMessages(REPOSITORY_ROOT), {
    appealUrl: 'https://example.com/appeal',
  }).context;
}

/** Cache lookups timed in batches (one costs less than reading the clock twice). */
function cachedLookups(context: EnforcementContext, uuids: readonly string[]): number[] {
  const samples: number[] = [];
  let found = 0;
  for (let batch = 0; batch < BATCHES; batch += 1) {
    const now = Date.now();
    const start = process.hrtime.bigint();
    for (let at = 0; at < BATCH; at += 1)
      if (context.cache.activeBan(uuids[(batch * BATCH + at) % uuids.length]!, now)) found += 1;
    samples.push(toMicros(start) / BATCH);
  }
  if (found < 0) throw new Error('unreachable');
  return samples;
}

/** Refused / sampled banned players on a fresh game server in one sync mode. */
async function coverage(
  dir: string,
  serviceUrl: string,
  mode: string,
  config: Record<string, unknown>,
  names: string[],
) {
  const serverDir = join(dir, mode);
  writeTestServerFolder(serverDir, config);
  const game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: serviceUrl, BAILIFF_API_KEY: API_KEY });
  try {
    let refused = 0;
    for (const name of names) {
      const result = await joinBot(game.port, name, 30_000);
      if (result.joined) await result.bot.quit();
      else if (result.reason.includes('You are banned')) refused += 1;
    }
    return refused;
  } finally {
    await game.stop();
  }
}

/**
 * The join decision with the login check against the reference service on loopback, beside the
 * cached decision and a plain `recent` call; then coverage on real servers with real bots: how
 * many sampled banned players are refused at join, per sync mode, with 2,000 active bans.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-login-check-'));
  const population = banPopulation(Date.now());
  const unbanned = Array.from({ length: CHECKS / 2 }, (_, at) => `Guest${at}`);
  const service = await startTestService({
    dbPath: join(dir, 'service.db'),
    players: [...population.banned, ...unbanned],
    punishments: population.punishments,
    rateLimitPerMinute: 1_000_000,
  });
  const results: BenchResult[] = [];
  try {
    const targets = fillCacheDatabase(join(dir, 'bailiff.db'), CACHED_PUNISHMENTS);
    const context = enforcementOver(join(dir, 'bailiff.db'));
    const banned = targets.filter((_, at) => at % 2 === 0);
    const strangers = targets.map((uuid) => `${uuid.slice(0, -4)}ffff`);
    cachedLookups(context, strangers);
    results.push(
      {
        name: 'join decision from the cache, not banned (the lookup before the login check)',
        unit: 'us',
        ...summarize(cachedLookups(context, strangers)),
        target: 'p99 <= 2 us',
        notes: `${CACHED_PUNISHMENTS.toLocaleString('en-US')} cached; batches of ${BATCH}; no network`,
      },
      {
        name: 'join decision from the cache, known ban (lookup and its row, no network)',
        unit: 'us',
        ...summarize(cachedLookups(context, banned)),
      },
    );

    const client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY, timeoutMs: 5000 });
    const settings = bailiffConfigSchema.parse({}).enforcement.loginCheck;
    const deps: LoginCheckDeps = {
      context,
      client,
      settings: () => settings,
      support: new LoginCheckSupport(() => settings, client.extensions),
      inFlight: new ChecksInFlight(),
      notices: new PendingNotices(context),
      apply: (punishment) => applyPunishment(context, punishment),
      timers: systemTimers,
    };
    const players = [...population.banned.slice(0, CHECKS / 2), ...unbanned];
    for (const name of players.slice(0, 50))
      await client.playerLogin({ minecraftUuid: offlineUuid(name), username: name });
    const checks: number[] = [];
    let refusedByCheck = 0;
    for (const name of players) {
      const start = performance.now();
      const event = new PreLoginEventImpl(offlineUuid(name), name, '127.0.0.1');
      onPreLogin(context, event);
      if (!event.denied) await checkAtLogin(deps, event);
      checks.push(performance.now() - start);
      if (event.denied) refusedByCheck += 1;
    }
    results.push({
      name: 'join decision with the login check (player not in the cache), reference service on loopback',
      unit: 'ms',
      ...summarize(checks),
      notes: `${CHECKS} joins, half of them banned at the service (${refusedByCheck} refused); budget ${settings.timeoutMs} ms`,
    });

    const recent: number[] = [];
    for (let at = 0; at < RECENT_CALLS; at += 1) {
      const start = performance.now();
      await client.recentPunishments({ hours: 48 });
      recent.push(performance.now() - start);
    }
    results.push({
      name: 'plain recent call (100 items), same service',
      unit: 'ms',
      ...summarize(recent),
      notes: `${RECENT_CALLS} sequential calls`,
    });
    context.db.close();

    const sample = population.sample(SAMPLE);
    const modes: Array<[string, string, Record<string, unknown>]> = [
      ['stream', 'sync.stream: auto', { sync: { stream: 'auto' } }],
      ['polling', 'sync.stream: off', { sync: { stream: 'off', pollIntervalMs: 1000 } }],
      [
        'contract',
        'sync.stream: off, loginCheck.enabled: false (contract only)',
        { sync: { stream: 'off', pollIntervalMs: 1000 }, enforcement: { loginCheck: { enabled: false } } },
      ],
    ];
    for (const [mode, label, config] of modes) {
      const refused = await coverage(dir, service.url, mode, config, sample);
      results.push({
        name: `coverage at join, 2,000 active bans, fresh server (${label})`,
        unit: '%',
        value: (refused / sample.length) * 100,
        target: mode === 'contract' ? undefined : '100 %',
        notes: `${refused} of ${sample.length} sampled banned players refused`,
      });
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
