import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createModerationClient } from '../../src/api/client.js';
import { dropBailiffInto } from '../hosts/helpers/drop-in.js';
import { type ServerProcess, type ServerRunner, startServerProcess } from '../hosts/helpers/server-process.js';
import { bedrockOfflineUuid, joinBedrock, mustJoinBedrock } from './helpers/bedrock-bots.js';
import { joinBot, mustJoin, offlineUuid } from './helpers/bots.js';
import { API_KEY, startTestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/** What the test does with one player, whatever the edition. */
interface Player {
  seen: string[];
  kickedWith(): string | undefined;
  chat(message: string): void;
  quit(): Promise<void>;
}

interface Edition {
  name: string;
  runner: ServerRunner;
  uuidOf(name: string): string;
  join(port: number, name: string): Promise<Player>;
  /** The refusal text, or 'joined'. */
  attempt(port: number, name: string): Promise<string>;
}

const java: Edition = {
  name: 'flying-squid started by createMCServer, Bailiff named in its plugins setting, mineflayer bots',
  runner: 'run-flying-squid-dropin',
  uuidOf: offlineUuid,
  join: async (port, name) => {
    const bot = await mustJoin(port, name);
    return { seen: bot.seen, kickedWith: () => bot.kickedWith, chat: (m) => bot.bot.chat(m), quit: () => bot.quit() };
  },
  attempt: async (port, name) => {
    const result = await joinBot(port, name);
    if (!result.joined) return result.reason;
    await result.bot.quit();
    return 'joined';
  },
};

const bedrock: Edition = {
  name: "SerenityJS started with its own API and Pipeline, Bailiff's folder in its plugins/, bedrock-protocol clients",
  runner: 'run-serenity-dropin',
  uuidOf: bedrockOfflineUuid,
  join: async (port, name) => {
    const bot = await mustJoinBedrock(port, name);
    return { seen: bot.seen, kickedWith: () => bot.kickedWith, chat: (m) => bot.chat(m), quit: () => bot.quit() };
  },
  attempt: async (port, name) => {
    const result = await joinBedrock(port, name);
    if (!result.joined) return result.reason;
    await result.bot.quit();
    return 'joined';
  },
};

/**
 * Bailiff dropped into a server its owner already runs: the built plugin folder copied to the
 * server's plugins/, the owner's own start script, the reference service on loopback named in
 * plugin-data/Bailiff/config.yml, real clients.
 */
describe.each([java, bedrock])('Bailiff as a drop-in: $name', { timeout: 60_000 }, (edition) => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-dropin-'));
  const names = ['Banned', 'Online', 'Muted', 'Listener'];
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let server: ServerProcess;
  const players: Player[] = [];
  const join_ = async (name: string) => {
    const player = await edition.join(server.port, name);
    players.push(player);
    return player;
  };
  const punish = async (name: string, typeOrdinal: number, reason: string) => {
    const client = createModerationClient({ baseUrl: service!.url, apiKey: API_KEY });
    await client.createPunishmentDynamic({ targetUuid: edition.uuidOf(name), typeOrdinal, issuerName: 'Mod', reason });
  };

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: names, uuidOf: edition.uuidOf });
    dropBailiffInto(dir);
    mkdirSync(join(dir, 'plugin-data', 'Bailiff'), { recursive: true });
    writeFileSync(
      join(dir, 'plugin-data', 'Bailiff', 'config.yml'),
      stringify({ api: { baseUrl: service.url, key: API_KEY }, sync: { pollIntervalMs: 500 } }),
    );
    server = await startServerProcess(dir, [], undefined, {}, edition.runner);
    await server.waitForLine(/\[Bailiff\] enabled Bailiff/);
  });

  afterAll(async () => {
    for (const player of players) await player.quit().catch(() => {});
    await server?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads Bailiff from <server>/plugins/Bailiff/ inside the running server', () => {
    expect(server.lines.some((line) => line.includes('with the plugin runtime as a guest'))).toBe(true);
  });

  it('refuses a banned player at join with the ban message', async () => {
    await punish('Banned', 2, 'griefing the spawn');
    const reason = await waitFor('the ban to be refused at join', async () => {
      const outcome = await edition.attempt(server.port, 'Banned');
      return outcome.includes('griefing the spawn') ? outcome : undefined;
    });
    expect(reason).toContain('banned');
  });

  it('kicks an online player once banned', async () => {
    const online = await join_('Online');
    await punish('Online', 2, 'x-ray mining');
    const reason = await waitFor('the kick', () => online.kickedWith());
    expect(reason).toContain('x-ray mining');
  });

  it('mutes a player: their chat never reaches the others, and they are told why', async () => {
    const muted = await join_('Muted');
    const listener = await join_('Listener');
    await punish('Muted', 6, 'spamming links');
    await waitFor('the mute notice', () => muted.seen.some((line) => line.includes('muted')));
    muted.chat('muted-chat-line');
    await waitFor('the chat refusal', () => muted.seen.some((line) => line.includes('You are muted')));
    listener.chat('listener-marker');
    await waitFor('the listener to see its own line', () => listener.seen.some((l) => l.includes('listener-marker')));
    expect(listener.seen.join('\n')).not.toContain('muted-chat-line');
    expect(muted.seen.join('\n')).toContain('spamming links');
  });

  it('disables Bailiff cleanly when the server stops', async () => {
    expect(await server.stop()).toBe(0);
    expect(server.lines.some((line) => line.includes('[Bailiff] disabled'))).toBe(true);
  });
});
