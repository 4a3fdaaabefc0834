import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinBot, mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { ADMIN_TOKEN, API_KEY, NETWORK, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const HOUR_MS = 3_600_000;
const MUTE_REASON = 'Warning ladder "Chat conduct": 2 warnings within 30 days';
const BAN_REASON = 'Warning ladder "Chat conduct": 3 warnings within 30 days';

/**
 * Issue 34 point 3 with real bots: StaffBot warns Spammer in game with /warn; the warning that
 * reaches the ladder's second step mutes Spammer (issued by System, told to them, chat blocked), the
 * next one bans and kicks them, and they cannot join again.
 */
describe('a warning ladder in game (bailiff start, reference service)', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-ladder-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let game: RunningGameServer | undefined;
  const bots: TestBot[] = [];

  const sees = (who: TestBot, text: string, timeoutMs = 10_000) =>
    waitFor(`${who.name} to see "${text}"`, () => who.seen.find((line) => line.includes(text)), timeoutMs);
  const countSeen = (who: TestBot, text: string) => who.seen.filter((line) => line.includes(text)).length;

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: ['StaffBot', 'Spammer'] });
    const ladder = await fetch(`${service.url}/admin/v1/networks/${NETWORK}/warning-ladder`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Chat conduct',
        warningLifetimeDays: 30,
        steps: [
          { warnings: 2, type: 'mute', duration: HOUR_MS },
          { warnings: 3, type: 'ban', duration: 24 * HOUR_MS },
        ],
      }),
    });
    expect(ladder.status).toBe(200);
    const server = join(dir, 'server');
    writeTestServerFolder(server);
    appendFileSync(join(server, 'server.yml'), 'ops: [StaffBot]\n');
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    bots.push(await mustJoin(game.port, 'StaffBot'));
  });

  afterAll(async () => {
    for (const each of bots) await each.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the crossing warning mutes the player by System, the next bans and kicks them', async () => {
    const [staff] = bots as [TestBot];
    const spammer = await mustJoin(game!.port, 'Spammer');
    bots.push(spammer);

    staff.bot.chat('/warn Spammer spam in chat');
    await waitFor('the first warning', () => countSeen(staff, 'Warned Spammer') === 1 || undefined);
    staff.bot.chat('/warn Spammer spam again');
    await waitFor('the second warning', () => countSeen(staff, 'Warned Spammer') === 2 || undefined);

    await sees(spammer, `You have been muted by System: ${MUTE_REASON}`);
    spammer.bot.chat('still spamming');
    await sees(spammer, `You are muted: ${MUTE_REASON}`);

    staff.bot.chat('/warn Spammer third time');
    const kicked = await waitFor('Spammer to be kicked', () => spammer.kickedWith);
    expect(kicked).toContain('You are banned from this server.');
    expect(kicked).toContain(BAN_REASON);
    expect(kicked).toContain('System');
    const refused = await joinBot(game!.port, 'Spammer');
    expect(refused.joined).toBe(false);

    const networkId = (await service!.context.stores.networks.findNetwork(NETWORK))!;
    const rows = await service!.context.stores.playerLookup.punishmentsOf(networkId, offlineUuid('Spammer'), 50);
    expect(rows.filter((row) => row.status === 'warning')).toHaveLength(3);
    expect(
      rows
        .filter((row) => row.issuer_name === 'System')
        .map((row) => [row.type_ordinal, row.duration, row.reason])
        .sort(),
    ).toEqual([
      [1, HOUR_MS, MUTE_REASON],
      [2, 24 * HOUR_MS, BAN_REASON],
    ]);
  });
});
