import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { type BedrockBot, bedrockOfflineUuid, joinBedrock, mustJoinBedrock } from './helpers/bedrock-bots.js';
import {
  BEDROCK_TEST_SETTINGS,
  type RunningGameServer,
  startGameServerProcess,
  writeTestServerFolder,
} from './helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/**
 * Bailiff, unchanged, on a Bedrock server: `bailiff start` with `edition: bedrock` (SerenityJS)
 * as a child process, the reference service on loopback, and bedrock-protocol clients in
 * offline mode, identified by the UUID their client sends. What every host does (bans, mutes,
 * kicks, pardons, expiry) is enforcement.e2e.test.ts, run on this host too; this file keeps what
 * is Bedrock's own.
 */
describe('Bailiff on SerenityJS (Bedrock) end to end', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-serenity-'));
  const names = ['BanFirst', 'Online1', 'Away1', 'Fine1'];
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let serviceUrl = '';
  let game: RunningGameServer;
  let client: ModerationApi;
  const _admin = adminApi(() => serviceUrl);
  const bots: BedrockBot[] = [];
  const env = () => ({ BAILIFF_API_URL: serviceUrl, BAILIFF_API_KEY: API_KEY });

  const join_ = async (name: string) => {
    const bot = await mustJoinBedrock(game.port, name);
    bots.push(bot);
    return bot;
  };
  const punish = async (name: string, typeOrdinal: number, reason: string) => {
    const { punishmentId } = await client.createPunishmentDynamic({
      targetUuid: bedrockOfflineUuid(name),
      typeOrdinal,
      issuerName: 'Bedrock Moderator',
      reason,
    });
    return punishmentId;
  };
  const refusal = async (name: string) => {
    const attempt = await joinBedrock(game.port, name);
    if (attempt.joined) bots.push(attempt.bot);
    return attempt.joined ? 'joined' : attempt.reason;
  };

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: names, uuidOf: bedrockOfflineUuid });
    serviceUrl = service.url;
    client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
    writeTestServerFolder(dir, undefined, BEDROCK_TEST_SETTINGS);
    game = await startGameServerProcess(dir, env());
    await waitFor('the stream to connect', () => game.output().includes('"state":"connected"'));
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs on the SerenityJS host', () => {
    expect(game.output()).toContain('serenity host: Minecraft bedrock edition 1.26.20');
  });

  it('refuses a banned player at join with the ban message', async () => {
    const id = await punish('BanFirst', 2, 'griefing spawn');
    await waitFor('the ban to be refused at join', async () => {
      const reason = await refusal('BanFirst');
      return reason.includes('griefing spawn') ? reason : undefined;
    });
    const reason = await refusal('BanFirst');
    for (const part of ['banned', 'griefing spawn', 'permanent', id]) expect(reason).toContain(part);
  });

  it('logs each join with the UUID and XUID the client sent', async () => {
    await join_('Online1');
    await waitFor('the join line with UUID and XUID', () =>
      new RegExp(`Online1 joined \\(uuid ${bedrockOfflineUuid('Online1')}, xuid \\d+\\)`).test(game.output()),
    );
  });

  it('with the service down, cached bans are still enforced, after a game server restart too', async () => {
    await punish('Away1', 2, 'banned while away');
    await waitFor('the ban to be enforced', async () => (await refusal('Away1')).includes('banned while away'));
    await service!.close();
    service = undefined;

    expect(await refusal('Away1')).toContain('banned while away');
    await game.stop();
    game = await startGameServerProcess(dir, env());
    expect(await refusal('Away1')).toContain('banned while away');
    const fine = await join_('Fine1');
    expect(fine.kickedWith).toBeUndefined();
  });
});
