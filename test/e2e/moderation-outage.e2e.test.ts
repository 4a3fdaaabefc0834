import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { mustJoin, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { tearDownGameTest } from './helpers/teardown.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['StaffBot', 'Target', 'Muted'];

/**
 * The moderation commands while the service is down (behind a proxy that answers 502): applied
 * here at once, queued, delivered once the service is back, and the service's copies take the
 * place of the local ones (a lift made meanwhile becomes a pardon).
 */
describe('moderation commands while the service is down', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-outage-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let serviceUrl = '';
  let proxy: ContractProxy;
  let game: RunningGameServer | undefined;
  const bots: TestBot[] = [];
  const admin = adminApi(() => serviceUrl);

  const startServiceNow = async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS });
    serviceUrl = service.url;
  };
  const sees = (who: TestBot, text: string) =>
    waitFor(`${who.name} to see "${text}"`, () => who.seen.find((line) => line.includes(text)));

  beforeAll(async () => {
    await startServiceNow();
    proxy = await startContractProxy({
      upstream: () => serviceUrl,
      profile: 'no-stream',
      whenUpstreamDown: 'bad-gateway',
    });
    const server = join(dir, 'server');
    writeTestServerFolder(server, {
      sync: { pollIntervalMs: 300, stream: 'off' },
      outbox: { baseDelayMs: 200, maxDelayMs: 800 },
    });
    appendFileSync(join(server, 'server.yml'), 'ops: [StaffBot]\n');
    game = await startGameServerProcess(server, { BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });
  });

  afterAll(() => tearDownGameTest({ bots, game, service, proxy, dir }));

  it('bans and mutes at once while down, delivers them later; an unmute made meanwhile reaches the service as a pardon', async () => {
    const [staff, target, muted] = [
      await mustJoin(game!.port, 'StaffBot'),
      await mustJoin(game!.port, 'Target'),
      await mustJoin(game!.port, 'Muted'),
    ];
    bots.push(staff, target, muted);
    await service!.close();
    service = undefined;

    staff.bot.chat('/ban Target 1h outage');
    await sees(staff, 'the ban of Target is applied here and queued');
    const kick = await waitFor('Target to be kicked at once', () => target.kickedWith);
    expect(kick).toContain('outage');

    staff.bot.chat('/mute Muted spam');
    await sees(staff, 'the mute of Muted is applied here and queued');
    muted.bot.chat('muted while the service is down');
    await sees(muted, 'You are muted: spam');

    staff.bot.chat('/check Target');
    const local = await sees(staff, 'Banned by StaffBot (1h): outage');
    expect(local).toMatch(/\(ID local-/);

    staff.bot.chat('/unmute Muted');
    await sees(staff, 'Unmuted Muted.');
    await sees(muted, 'has been lifted');

    await startServiceNow();
    const client = createModerationClient({ baseUrl: serviceUrl, apiKey: API_KEY });
    const delivered = await waitFor(
      'both creations to reach the service',
      async () => {
        const { punishments } = await client.recentPunishments({ hours: 1 });
        const ban = punishments.find((punishment) => punishment.targetName === 'Target');
        const mute = punishments.find((punishment) => punishment.targetName === 'Muted');
        return ban && mute ? { ban, mute } : undefined;
      },
      30_000,
      300,
    );
    expect(delivered.ban).toMatchObject({
      typeOrdinal: 2,
      duration: 3_600_000,
      issuerName: 'StaffBot',
      reason: 'outage',
    });

    // The service's copy replaces the local one, its acknowledgement follows, and the lift becomes a pardon.
    const acknowledged = await waitFor(
      'the ban to be acknowledged',
      async () => ((await admin.punishment(delivered.ban.id)).acknowledgements.length > 0 ? true : undefined),
      30_000,
      300,
    );
    expect(acknowledged).toBe(true);
    const pardoned = await waitFor(
      'the mute to be pardoned at the service',
      async () => ((await admin.punishment(delivered.mute.id)).punishment.status === 'pardoned' ? true : undefined),
      30_000,
      300,
    );
    expect(pardoned).toBe(true);
    staff.bot.chat('/check Target');
    await sees(staff, `(ID ${delivered.ban.id})`);
  });
});
