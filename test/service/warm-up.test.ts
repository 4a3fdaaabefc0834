import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loginCheckResponse } from '../../src/contract/schemas.js';
import { openDb } from '../../src/db/open-db.js';
import type { Logger } from '../../src/ports/logger.js';
import { JEB, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

let t: TestService | undefined;
let dir: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Each table's rows and highest rowid (the planner's statistics left out: every start may refresh them). */
function snapshot(path: string): Record<string, unknown> {
  const db = openDb(path, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%'")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((table) => {
        const withoutRowid = /WITHOUT ROWID/i.test(
          db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(table) as string,
        );
        const last = withoutRowid ? '' : ', max(rowid) AS last';
        return [table, db.prepare(`SELECT count(*) AS rows${last} FROM "${table}"`).get()];
      }),
    );
  } finally {
    db.close();
  }
}

describe('the start-up warm-up', () => {
  it('answers its login checks before listening and leaves no row or server activity behind', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-warm-up-'));
    const dbPath = join(dir, 'service.db');
    t = await startTestService({ dbPath });
    const ban = await t.call('POST', '/punishments/dynamic', { targetUuid: JEB, typeOrdinal: 2, issuerName: 'mod' });
    expect(ban.status).toBe(200);
    const login = await t.call('POST', '/player/login', {
      minecraftUuid: NOTCH,
      username: 'Notch',
      ipAddress: '192.0.2.7',
    });
    expect(login.status).toBe(200);
    await t.close();
    // A start without the warm-up, as the reference of what a start itself leaves.
    t = await startTestService({ dbPath });
    await t.close();
    const before = snapshot(dbPath);

    const logged: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger: Logger = {
      debug: () => {},
      info: (message, fields) => logged.push([message, fields]),
      warn: () => {},
      error: (message, fields) => logged.push([message, fields]),
    };
    t = await startTestService({ dbPath, warmUpChecks: 60, logger });
    expect(logged).toEqual([['warmed up', { checks: expect.any(Number), ms: expect.any(Number) }]]);
    // All 60, or as many as a busy machine answered within the warm-up's second (one on each connection at least).
    expect(logged[0]![1]!.checks).toBeGreaterThanOrEqual(4);
    expect(snapshot(dbPath)).toEqual(before);

    // The rehearsal's servers are gone, and so is what the service saw of them: a server added now has no activity.
    const { stores, activity } = t.service.context;
    const alpha = (await stores.networks.findNetwork('alpha'))!;
    const added = await stores.networks.ensureServer(alpha, 'added-later', 'added-later-key-0123456789abcdef');
    expect(activity.view(added)).toMatchObject({ lastRequestAtMs: null, openStreams: 0 });

    const answer = await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_' });
    expect(answer.status).toBe(200);
    expect(loginCheckResponse.parse(await answer.json()).activePunishments).toHaveLength(1);
  });

  it('counts none of its checks in the metrics: the operator sees only real requests', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-warm-up-'));
    const metricsToken = 'metrics-token-of-the-warm-up-test';
    const logged: Array<Record<string, unknown> | undefined> = [];
    const logger: Logger = {
      debug: () => {},
      info: (message, fields) => {
        if (message === 'warmed up') logged.push(fields);
      },
      warn: () => {},
      error: () => {},
    };
    t = await startTestService({ dbPath: join(dir, 'service.db'), warmUpChecks: 20, metricsToken, logger });
    expect(logged[0]!.checks).toBeGreaterThanOrEqual(4);
    const login = await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_' });
    expect(login.status).toBe(200);

    const scraped = await fetch(`${t.service.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    const counted = (pattern: RegExp) =>
      text
        .split('\n')
        .filter((line) => pattern.test(line))
        .map((line) => Number(line.split(' ').at(-1)));
    expect(counted(/^bailiff_login_check_duration_seconds_count/)).toEqual([1]);
    expect(counted(/^bailiff_http_requests_total\{.*player\/login/)).toEqual([1]);
  });

  it('ends early, and the service starts, when a rehearsal check is refused (a rate limit below its pace)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bailiff-warm-up-'));
    const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (message, fields) => warnings.push([message, fields]),
      error: () => {},
    };
    // Three checks a minute for each key: the rehearsal's ten keys are refused from their fourth check,
    // which a loaded machine may reach only after the default second.
    t = await startTestService({
      dbPath: join(dir, 'service.db'),
      warmUpChecks: 200,
      warmUpMaxMs: 120_000,
      rateLimitPerMinute: 3,
      logger,
    });
    expect(warnings).toEqual([
      [
        'warm-up ended early: a rehearsal login check failed',
        { checks: expect.any(Number), reason: 'HTTP 429', ms: expect.any(Number) },
      ],
    ]);
    const login = await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_' });
    expect(login.status).toBe(200);
  });

  it('leaves a database in memory cold: it starts empty, so no network storms it', async () => {
    const logged: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: (message) => logged.push(message),
      warn: () => {},
      error: () => {},
    };
    t = await startTestService({ warmUpChecks: 20, logger });
    expect(logged).not.toContain('warmed up');
  });

  it('refuses a number of checks that is not a whole number >= 0, naming the option', async () => {
    await expect(startTestService({ warmUpChecks: -1 })).rejects.toThrow(
      'service option warmUpChecks: must be an integer >= 0, received -1',
    );
  });
});
