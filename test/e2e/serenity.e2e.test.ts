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
 * offline mode, identified by the UUID their client sends.
 */
describe('Bailiff on SerenityJS (Bedrock) end to end', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-serenity-'));
  const names = ['BanFirst', 'Online1', 'Muted1', 'Listener1', 'Away1', 'Fine1'];
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let serviceUrl = '';
  let game: RunningGameServer;
  let client: ModerationApi;
  const admin = adminApi(() => serviceUrl);
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

  it('kicks an online player when a ban is issued; the acknowledgements reach the service', async () => {
    const online = await join_('Online1');
    await waitFor('the join line with UUID and XUID', () =>
      new RegExp(`Online1 joined \\(uuid ${bedrockOfflineUuid('Online1')}, xuid \\d+\\)`).test(game.output()),
    );
    const id = await punish('Online1', 2, 'x-ray mining');
    await waitFor('the banned player to be kicked', () => online.kickedWith);
    expect(online.kickedWith).toContain('x-ray mining');
    expect(await refusal('Online1')).toContain('x-ray mining');
    const state = await waitFor('the acknowledgement', async () => {
      const found = await admin.punishment(id);
      return found.acknowledgements.length > 0 ? found : undefined;
    });
    expect(state.acknowledgements[0]).toMatchObject({ success: true });
  });

  it('a mute blocks chat and /msg from reaching another player, and tells the muted player why', async () => {
    const muted = await join_('Muted1');
    const listener = await join_('Listener1');
    await punish('Muted1', 6, 'spamming links');
    await waitFor('the mute notice', () => muted.seen.some((line) => line.includes('muted')));

    muted.chat('muted-chat-line');
    await waitFor('the chat refusal', () => muted.seen.some((line) => line.includes('You are muted')));
    muted.command('msg Listener1 muted-whisper-line');
    await waitFor('the /msg refusal', () => muted.seen.some((line) => line.includes('cannot use /msg')));

    // The listener's own line arrives after both refused ones were handled by the server.
    listener.chat('listener-marker');
    await waitFor('the listener to see its own line', () =>
      listener.seen.some((line) => line.includes('listener-marker')),
    );
    expect(listener.seen.join('\n')).not.toContain('muted-chat-line');
    expect(listener.seen.join('\n')).not.toContain('muted-whisper-line');
    expect(muted.seen.join('\n')).toContain('spamming links');
  });

  it('a pardon at the service lets the banned player back in', async () => {
    const [ban] = (await client.recentPunishments({ hours: 1 })).punishments.filter(
      (punishment) => punishment.targetUuid === bedrockOfflineUuid('BanFirst'),
    );
    await admin.setStatus(ban!.id, 'pardoned');
    const back = await waitFor(
      'the pardoned player to be let in',
      async () => {
        const attempt = await joinBedrock(game.port, 'BanFirst');
        return attempt.joined ? attempt.bot : undefined;
      },
      20_000,
      250,
    );
    bots.push(back);
    expect(back.kickedWith).toBeUndefined();
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
