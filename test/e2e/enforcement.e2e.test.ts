import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { HOSTS, type PlayerBot } from './helpers/hosts.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/**
 * Enforcement with the real pieces, written once and run on each host: the reference service
 * (stream on), `bailiff start` as a child process running the game server, and bots on 127.0.0.1.
 */
describe.each(HOSTS)('enforcement end to end on $name', { timeout: 60_000 }, (host) => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-enforce-'));
  const names = ['Banned1', 'Muted1', 'Listener1', 'Kicked1', 'Expiring1'];
  let service: Awaited<ReturnType<typeof startTestService>>;
  let game: RunningGameServer;
  let client: ModerationApi;
  const admin = adminApi(() => service.url);
  const bots: PlayerBot[] = [];
  const joinBot = (port: number, name: string) => host.join(port, name);

  const join_ = async (name: string) => {
    const result = await host.join(game.port, name);
    if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
    bots.push(result.bot);
    return result.bot;
  };
  const punish = async (name: string, typeOrdinal: number, reason: string, duration?: number) => {
    const { punishmentId } = await client.createPunishmentDynamic({
      targetUuid: host.uuidOf(name),
      typeOrdinal,
      issuerName: 'E2E Moderator',
      reason,
      ...(duration === undefined ? {} : { duration }),
    });
    return punishmentId;
  };

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: names, uuidOf: host.uuidOf });
    client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
    writeTestServerFolder(dir, undefined, host.serverSettings);
    game = await startGameServerProcess(dir, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    await waitFor('the stream to connect', () => game.output().includes('"state":"connected"'));
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a ban kicks the online player with the templated message and refuses the rejoin; both acks reach the service', async () => {
    const banned = await join_('Banned1');
    const id = await punish('Banned1', 2, 'x-ray mining');
    await waitFor('the banned bot to be kicked', () => banned.kickedWith);
    for (const part of ['banned', 'x-ray mining', 'permanent', id, 'E2E Moderator']) {
      expect(banned.kickedWith).toContain(part);
    }

    const rejoin = await joinBot(game.port, 'Banned1');
    expect(rejoin.joined).toBe(false);
    expect(rejoin.joined ? '' : rejoin.reason).toContain('x-ray mining');

    const state = await waitFor('the acknowledgements to reach the service', async () => {
      const found = await admin.punishment(id);
      return found.acknowledgements.length > 0 && found.notificationAcknowledged ? found : undefined;
    });
    expect(state.acknowledgements[0]).toMatchObject({ success: true });
    expect(state.punishment.started).not.toBeNull();
  });

  it('a mute stops chat and /msg from reaching another player, and tells the muted player why', async () => {
    const muted = await join_('Muted1');
    const listener = await join_('Listener1');
    const id = await punish('Muted1', 6, 'spamming links');
    await waitFor('the mute notice', () => muted.seen.some((line) => line.includes('muted')));

    muted.chat('muted-chat-line');
    await waitFor('the chat refusal', () => muted.seen.some((line) => line.includes('You are muted')));
    muted.whisper('Listener1', 'muted-whisper-line');
    await waitFor(`the /${host.whisperCommand} refusal`, () =>
      muted.seen.some((line) => line.includes(`cannot use /${host.whisperCommand}`)),
    );

    // The listener's own line arrives after both refused ones were handled by the server.
    listener.chat('listener-marker');
    await waitFor('the listener to see its own line', () =>
      listener.seen.some((line) => line.includes('listener-marker')),
    );
    expect(listener.seen.join('\n')).not.toContain('muted-chat-line');
    expect(listener.seen.join('\n')).not.toContain('muted-whisper-line');
    expect(muted.seen.join('\n')).toContain('spamming links');
    // The console tells the owner the line was blocked, and never prints it as chat.
    await waitFor('the blocked line on the console', () => game.output().includes('[muted] Muted1: muted-chat-line'));
    const consoleLines = game
      .output()
      .split('\n')
      .filter((line) => line.includes('muted-chat-line'));
    expect(consoleLines.every((line) => /INFO \[muted\] Muted1: muted-chat-line$/.test(line))).toBe(true);

    await waitFor('the mute acknowledgement', async () => (await admin.punishment(id)).acknowledgements.length > 0);
  });

  it('a kick kicks the online player once; they may come back', async () => {
    const kicked = await join_('Kicked1');
    await punish('Kicked1', 0, 'take a break');
    await waitFor('the kick', () => kicked.kickedWith);
    expect(kicked.kickedWith).toContain('take a break');
    const back = await join_('Kicked1');
    expect(back.kickedWith).toBeUndefined();
  });

  it('a pardon at the service lets the banned player back in', async () => {
    const [ban] = (await client.recentPunishments({ hours: 1 })).punishments.filter(
      (punishment) => punishment.targetUuid === host.uuidOf('Banned1'),
    );
    await admin.setStatus(ban!.id, 'pardoned');
    const back = await waitFor(
      'the pardoned player to be let in',
      async () => {
        const attempt = await joinBot(game.port, 'Banned1');
        return attempt.joined ? attempt.bot : undefined;
      },
      20_000,
      250,
    );
    bots.push(back);
    expect(back.kickedWith).toBeUndefined();
  });

  it('a temporary ban stops applying once it has run out', async () => {
    const expiring = await join_('Expiring1');
    await punish('Expiring1', 2, 'short ban', 3000);
    await waitFor('the ban kick', () => expiring.kickedWith);
    const refused = await joinBot(game.port, 'Expiring1');
    expect(refused.joined).toBe(false);
    const back = await waitFor(
      'the expired ban to let the player in',
      async () => {
        const attempt = await joinBot(game.port, 'Expiring1');
        return attempt.joined ? attempt.bot : undefined;
      },
      20_000,
      500,
    );
    bots.push(back);
  });
});
