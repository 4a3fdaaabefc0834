import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { joinBot, mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { punishmentsAtService } from './helpers/service-rows.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Flooder', 'Victim1', 'Victim2', 'Victim3', 'StaffBot', 'Fresh', 'SameHouse'];
const COOLDOWN_MS = 2000;
const FLOOD_MS = 8000;
const FLOOD_PER_SECOND = 30;

/**
 * A hostile player against the plugin and the reference service (limit 120 a minute, as in the
 * issue), through a proxy that counts every call: a flood of ticket commands must not reach the
 * service more than about once per cooldown, nor hold back staff; broad IP bans are refused.
 */
describe('hostile players (bailiff start, reference service behind a counting proxy)', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-hostile-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let proxy: ContractProxy | undefined;
  let game: RunningGameServer | undefined;
  const bots: TestBot[] = [];
  const server = join(dir, 'server');

  const join_ = async (name: string, localAddress?: string) => {
    const joined = await mustJoin(game!.port, name, localAddress === undefined ? {} : { localAddress });
    bots.push(joined);
    return joined;
  };
  const ticketCalls = () => proxy!.log.requests.filter((call) => call.path.includes('/tickets/'));
  const unsentCreations = () => {
    const db = new Database(join(server, 'plugin-data', 'Bailiff', 'bailiff.db'), { readonly: true });
    try {
      return db
        .prepare<[], { operation: string }>("SELECT operation FROM outbox WHERE status != 'sent'")
        .all()
        .filter((row) => row.operation.startsWith('createPunishment'));
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS, rateLimitPerMinute: 120 });
    proxy = await startContractProxy({
      upstream: () => service!.url,
      profile: 'no-stream',
      whenUpstreamDown: 'bad-gateway',
    });
    writeTestServerFolder(server, { players: { callCooldownMs: COOLDOWN_MS } });
    appendFileSync(join(server, 'server.yml'), 'ops: [StaffBot]\n');
    game = await startGameServerProcess(server, { BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });
  });

  afterAll(async () => {
    for (const each of bots) await each.quit().catch(() => {});
    await game?.stop();
    await proxy?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a /tickets and /ticket flood reaches the service about once per cooldown, is told to slow down, and console bans go straight through', async () => {
    const flooder = await join_('Flooder');
    const before = ticketCalls().length;
    const commands = ['/tickets', '/ticket t-1', '/ticket t-2'];
    let sent = 0;
    const flood = setInterval(() => {
      flooder.bot.chat(commands[sent % commands.length]!);
      sent += 1;
    }, 1000 / FLOOD_PER_SECOND);
    try {
      for (const victim of ['Victim1', 'Victim2', 'Victim3']) {
        game!.console(`ban ${victim} caught during the flood`);
        await waitFor(
          `the ban of ${victim} at the service`,
          async () =>
            (await punishmentsAtService(service!.url)).find(
              (punishment) => punishment.targetUuid === offlineUuid(victim) && punishment.status === 'active',
            ),
          2000,
        );
        // The service stores the ban before the plugin hears its answer: the row is marked sent just after.
        await waitFor(`the creation for ${victim} marked sent`, () => unsentCreations().length === 0, 2000);
        await new Promise((resolve) => setTimeout(resolve, FLOOD_MS / 3));
      }
    } finally {
      clearInterval(flood);
    }
    expect(sent).toBeGreaterThan((FLOOD_PER_SECOND * FLOOD_MS) / 1000 / 2);
    await waitFor('the flooder to be told to slow down', () =>
      flooder.seen.find((line) => line.startsWith('Slow down: you can ask again in')),
    );
    // One call per cooldown, plus the one at the start; the /tickets answer is reused from the cache.
    const reached = ticketCalls().length - before;
    expect(reached).toBeGreaterThan(0);
    expect(reached).toBeLessThanOrEqual(Math.ceil(FLOOD_MS / COOLDOWN_MS) + 2);
    expect(game!.output()).not.toContain('queued');
  });

  it('refuses ban-ip 0.0.0.0/0 and ::/0 naming the setting, and a fresh player still joins', async () => {
    game!.console('ban-ip 0.0.0.0/0 everyone');
    game!.console('ban-ip ::/0 everyone');
    await waitFor('the IPv4 refusal', () => game!.output().includes('Not banned: 0.0.0.0/0 is broader than a /16'));
    await waitFor('the IPv6 refusal', () => game!.output().includes('Not banned: ::/0 is broader than a /48'));
    expect(game!.output()).toContain('(config.yml evasion.ipBanMinPrefixV4)');
    await join_('Fresh');
    const ipBans = (await punishmentsAtService(service!.url)).filter((punishment) => punishment.data?.ipAddress);
    expect(ipBans).toEqual([]);
  });

  it('an IP ban never refuses a holder of bailiff.ipban.bypass (an op), and still refuses others on the address', async () => {
    game!.console('ban-ip 127.0.0.77 shared house');
    await waitFor('the IP ban at the service', async () =>
      (await punishmentsAtService(service!.url)).find((punishment) => punishment.data?.ipAddress === '127.0.0.77'),
    );
    await waitFor('the IP ban to be applied here', () => game!.output().includes('IP-banned'));
    await join_('StaffBot', '127.0.0.77');
    const refused = await joinBot(game!.port, 'SameHouse', 20_000, { localAddress: '127.0.0.77' });
    expect(refused.joined).toBe(false);
  });
});
