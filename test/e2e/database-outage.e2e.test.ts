import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { joinBot, mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { cachedPunishments, consoleStatus } from './helpers/console-status.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['StaffBot', 'Target', 'Banned', 'Newcomer'];
const DATABASE_DOWN = 'the database cannot be reached';
/** What the reference service answers every route while its database is unreachable. */
const UNAVAILABLE = {
  kind: 'answer',
  status: 503,
  body: JSON.stringify({ status: 503, success: false, error: 'Service Unavailable', message: DATABASE_DOWN }),
  headers: { 'retry-after': '2' },
} as const;

/**
 * Issue 31, item 2 (the plugin's side): the service answers 503 with its error body and
 * `Retry-After` while its database is unreachable (played by the proxy). The plugin treats it as
 * an outage: bans it knows are still enforced, a join the login check cannot answer is decided by
 * the cache, a staff ban is applied here and queued, a read names the service's own reason, and
 * once the service is back everything queued arrives once.
 */
describe('a 503 from the service (its database unreachable) is an outage', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-database-outage-'));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let proxy: ContractProxy;
  let game: RunningGameServer | undefined;
  const bots: TestBot[] = [];
  const admin = adminApi(() => service.url);
  const sees = (who: TestBot, text: string) =>
    waitFor(`${who.name} to see "${text}"`, () => who.seen.find((line) => line.includes(text)));
  const answered503 = (path: RegExp) =>
    proxy.log.requests.some((entry) => path.test(entry.path) && entry.status === 503);

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS });
    proxy = await startContractProxy({ upstream: () => service.url, profile: 'no-stream' });
    const server = join(dir, 'server');
    writeTestServerFolder(server, {
      sync: { pollIntervalMs: 300, stream: 'off' },
      outbox: { baseDelayMs: 200, maxDelayMs: 5000 },
      enforcement: { loginCheck: { timeoutMs: 10_000 } },
    });
    appendFileSync(join(server, 'server.yml'), 'ops: [StaffBot]\n');
    game = await startGameServerProcess(server, { BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await proxy?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('enforces from the cache, decides joins without the login check, queues a staff ban, and delivers it once back', async () => {
    const client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
    await client.createPunishmentDynamic({
      targetUuid: offlineUuid('Banned'),
      typeOrdinal: 2,
      issuerName: 'Panel',
      reason: 'banned before the outage',
    });
    await waitFor('the ban to be cached', async () => (cachedPunishments(await consoleStatus(game!)) ?? 0) >= 1);
    const staff = await mustJoin(game!.port, 'StaffBot');
    const target = await mustJoin(game!.port, 'Target');
    bots.push(staff, target);

    proxy.inject({ path: /./, times: Number.POSITIVE_INFINITY, fault: UNAVAILABLE });
    await waitFor('a poll answered 503', () => answered503(/\/punishments\/recent$/));

    const banned = await joinBot(game!.port, 'Banned');
    expect(banned.joined ? 'joined' : banned.reason).toContain('banned before the outage');

    const newcomer = await joinBot(game!.port, 'Newcomer');
    expect(newcomer.joined).toBe(true);
    if (newcomer.joined) bots.push(newcomer.bot);
    expect(answered503(/\/player\/login$/)).toBe(true);

    staff.bot.chat('/ban Target 1h database down');
    await sees(staff, 'the ban of Target is applied here and queued');
    expect(await waitFor('Target to be kicked at once', () => target.kickedWith)).toContain('database down');

    staff.bot.chat('/preview Newcomer 2');
    await sees(staff, `The moderation service is unavailable right now (preview, 503): ${DATABASE_DOWN}`);
    expect(await consoleStatus(game!)).toContain('Service: unreachable');
    expect(game!.output()).not.toContain(API_KEY);

    proxy.clearFaults();
    const delivered = await waitFor(
      'the queued ban to reach the service',
      async () => {
        const { punishments } = await client.recentPunishments({ hours: 1 });
        const bans = punishments.filter((punishment) => punishment.reason === 'database down');
        return bans.length > 0 ? bans : undefined;
      },
      30_000,
      300,
    );
    expect(delivered).toHaveLength(1);
    const acknowledged = await waitFor(
      'the delivered ban to be acknowledged',
      async () => ((await admin.punishment(delivered[0]!.id)).acknowledgements.length > 0 ? true : undefined),
      30_000,
      300,
    );
    expect(acknowledged).toBe(true);
    const { punishments } = await client.recentPunishments({ hours: 1 });
    expect(punishments.filter((punishment) => punishment.reason === 'database down')).toHaveLength(1);
  });
});
