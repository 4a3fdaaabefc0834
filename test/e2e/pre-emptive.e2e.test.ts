import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { joinBot, offlineUuid } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/**
 * Punishing players before their first join on this server: by name (offline mode: the offline
 * UUID; online mode: a profile lookup, here against a local stub) and by UUID. The service knows
 * none of them; the first join is refused like any ban.
 */
describe('pre-emptive punishments end to end (bailiff start, reference service)', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-pre-emptive-'));
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  const games: RunningGameServer[] = [];
  let profiles: Server | undefined;
  const profilePaths: string[] = [];
  const NOTCH_UUID = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

  const consoleSays = (game: RunningGameServer, text: string) =>
    waitFor(`the console to print "${text}"`, () => game.output().includes(text) || undefined, 20_000);
  const punishmentsAtService = async () =>
    (await createModerationClient({ baseUrl: service!.url, apiKey: API_KEY }).recentPunishments({ hours: 1 }))
      .punishments;
  const start = async (name: string, serverSettings: Record<string, unknown>, config?: Record<string, unknown>) => {
    const folder = join(dir, name);
    writeTestServerFolder(folder, config, serverSettings);
    const game = await startGameServerProcess(folder, { BAILIFF_API_URL: service!.url, BAILIFF_API_KEY: API_KEY });
    games.push(game);
    return game;
  };

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: [] });
    profiles = createServer((request, response) => {
      profilePaths.push(request.url ?? '');
      const name = decodeURIComponent((request.url ?? '').split('/').at(-1) ?? '');
      if (name.toLowerCase() !== 'notch') {
        response.statusCode = 404;
        return response.end('{"errorMessage":"Couldn\'t find any profile with name"}');
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ id: NOTCH_UUID.replace(/-/g, ''), name: 'Notch' }));
    });
    profiles.listen(0, '127.0.0.1');
    await once(profiles, 'listening');
  });

  afterAll(async () => {
    for (const game of games) await game.stop();
    profiles?.closeAllConnections();
    profiles?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('offline mode: a ban by name and a ban by UUID each refuse the player at their first join', async () => {
    const game = await start('offline', {});
    const newGuy = offlineUuid('NewGuy');
    game.console('ban NewGuy griefing before joining');
    await consoleSays(game, `NewGuy has not joined this server: UUID ${newGuy} (the offline-mode UUID of that name).`);
    await consoleSays(game, 'Banned NewGuy permanently. Punishment ID:');
    const byUuid = offlineUuid('ByUuid');
    game.console(`tempban ${byUuid} 2d evading`);
    await consoleSays(game, `Banned ${byUuid} for 2d. Punishment ID:`);

    const refused = await joinBot(game.port, 'NewGuy');
    if (refused.joined) throw new Error('NewGuy joined despite the ban');
    expect(refused.reason).toContain('You are banned from this server.');
    expect(refused.reason).toContain('Reason: griefing before joining');
    const second = await joinBot(game.port, 'ByUuid');
    if (second.joined) throw new Error('ByUuid joined despite the ban');
    expect(second.reason).toContain('Reason: evading');

    const stored = await punishmentsAtService();
    expect(stored.find((punishment) => punishment.targetUuid === newGuy)).toMatchObject({ targetName: 'NewGuy' });
    expect(stored.find((punishment) => punishment.targetUuid === byUuid)).toMatchObject({ status: 'active' });
    // A player without a punishment still gets in.
    const free = await joinBot(game.port, 'Innocent');
    expect(free.joined).toBe(true);
    if (free.joined) await free.bot.quit();
  });

  it('online mode: a name is looked up at profileLookupUrl (a stub on 127.0.0.1); an unknown one is refused', async () => {
    const { port } = profiles!.address() as { port: number };
    const game = await start(
      'online',
      { onlineMode: true },
      { players: { profileLookupUrl: `http://127.0.0.1:${port}/users/profiles/minecraft/{name}` } },
    );
    game.console('ban notch x-ray before joining');
    await consoleSays(game, `Notch has not joined this server: UUID ${NOTCH_UUID} (from the profile lookup).`);
    await consoleSays(game, 'Banned Notch permanently. Punishment ID:');
    game.console('ban Ghost x');
    await consoleSays(game, 'No Minecraft account is named Ghost.');
    expect(profilePaths).toEqual(['/users/profiles/minecraft/notch', '/users/profiles/minecraft/Ghost']);
    expect((await punishmentsAtService()).find((punishment) => punishment.targetUuid === NOTCH_UUID)).toMatchObject({
      targetName: 'Notch',
      reason: 'x-ray before joining',
    });
  });
});
