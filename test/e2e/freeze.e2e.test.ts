import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../src/service/index.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { HOSTS, type PlayerBot } from './helpers/hosts.js';
import { API_KEY, NETWORK } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const SECOND_KEY = 'e2e-second-server-key-0123456789';
/** The freeze poll runs at its slowest here: only a join (or the first server's own command) may bring a freeze. */
const BAILIFF_CONFIG = { freeze: { pollIntervalMs: 0 } };

/**
 * Freeze with the real pieces on each host: the reference service, two game servers of one
 * network (`bailiff start` child processes) and real clients. A frozen player's moves are undone
 * by the server, their chat reaches staff only and their commands are refused; the freeze follows
 * them to the second server at their join; an unfreeze there lets them go everywhere.
 */
describe.each(HOSTS)('freeze end to end on $name', { timeout: 120_000 }, (host) => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-freeze-'));
  let service: RunningService;
  let first: RunningGameServer;
  let second: RunningGameServer;
  const bots: PlayerBot[] = [];

  const joinTo = async (game: RunningGameServer, name: string) => {
    const result = await host.join(game.port, name);
    if (!result.joined) throw new Error(`${name} was refused: ${result.reason}`);
    bots.push(result.bot);
    return result.bot;
  };
  const saw = (bot: PlayerBot, text: string) => bot.seen.some((line) => line.includes(text));
  const frozenAtService = async () => {
    const response = await fetch(`${service.url}/v1/minecraft/freezes`, { headers: { 'x-api-key': API_KEY } });
    return ((await response.json()) as { players: { playerName: string; reason: string }[] }).players;
  };
  /** Steps the player and waits for the server to put them back where they were. */
  const stepIsUndone = async (bot: PlayerBot) => {
    const { mover } = bot;
    const before = mover.corrections;
    const from = mover.x();
    mover.stepBy(0.3);
    await waitFor('the server to undo the step', () => mover.corrections > before);
    expect(Math.abs(mover.x() - from)).toBeLessThan(0.01);
  };

  beforeAll(async () => {
    service = await startService({
      host: '127.0.0.1',
      port: 0,
      dbPath: join(dir, 'service.db'),
      seed: {
        networks: [
          {
            name: NETWORK,
            servers: [
              { name: 'first', apiKey: API_KEY },
              { name: 'second', apiKey: SECOND_KEY },
            ],
            players: [],
            punishments: [],
          },
        ],
      },
    });
    for (const name of ['first', 'second']) writeTestServerFolder(join(dir, name), BAILIFF_CONFIG, host.serverSettings);
    first = await startGameServerProcess(join(dir, 'first'), {
      BAILIFF_API_URL: service.url,
      BAILIFF_API_KEY: API_KEY,
    });
    second = await startGameServerProcess(join(dir, 'second'), {
      BAILIFF_API_URL: service.url,
      BAILIFF_API_KEY: SECOND_KEY,
    });
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await first?.stop();
    await second?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a frozen player: moves undone, chat to staff only, commands refused, told why', async () => {
    const suspect = await joinTo(first, 'Suspect');
    const watcher = await joinTo(first, 'Watcher');
    first.console('freeze Suspect checking for x-ray');
    await waitFor('the frozen notice', () => saw(suspect, 'You are frozen'));
    expect(suspect.seen.join('\n')).toContain('checking for x-ray');
    await waitFor('the staff answer', () => first.output().includes('Froze Suspect on every server of the network'));
    expect(await frozenAtService()).toMatchObject([{ playerName: 'Suspect', reason: 'checking for x-ray' }]);

    await stepIsUndone(suspect);

    suspect.chat('frozen-chat-line');
    await waitFor('the line sent to staff only', () => saw(suspect, '[to staff] frozen-chat-line'));
    await waitFor('the staff to read it', () => first.output().includes('[Frozen] Suspect: frozen-chat-line'));
    suspect.whisper('Watcher', 'frozen-whisper-line');
    await waitFor('the command refusal', () => saw(suspect, `cannot use /${host.whisperCommand} while frozen`));
    // The watcher's own line arrives after both refused ones were handled by the server.
    watcher.chat('watcher-marker');
    await waitFor('the watcher to see its own line', () => saw(watcher, 'watcher-marker'));
    expect(watcher.seen.join('\n')).not.toContain('frozen-chat-line');
    expect(watcher.seen.join('\n')).not.toContain('frozen-whisper-line');
  });

  it('follows the player to the second server, where /frozen lists them and an unfreeze lets them go', async () => {
    const left = bots.find((bot) => bot.name === 'Suspect')!;
    await left.quit();
    const suspect = await joinTo(second, 'Suspect');
    await waitFor('the frozen notice on the second server', () => saw(suspect, 'You are frozen'));
    await stepIsUndone(suspect);
    suspect.chat('second-server-line');
    await waitFor('the line sent to staff only', () => saw(suspect, '[to staff] second-server-line'));

    second.console('frozen');
    await waitFor('the list of frozen players', () =>
      /Suspect by CONSOLE, \S+ ago: checking for x-ray/.test(second.output()),
    );

    second.console('unfreeze Suspect');
    await waitFor('the unfrozen notice', () => saw(suspect, 'You are no longer frozen'));
    await waitFor('the staff answer', () => second.output().includes('Unfroze Suspect on every server of the network'));
    expect(await frozenAtService()).toEqual([]);
    suspect.chat('free-line');
    await waitFor('the line said aloud', () => saw(suspect, 'free-line') && !saw(suspect, '[to staff] free-line'));
  });
});
