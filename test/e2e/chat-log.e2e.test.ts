import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { type RunningService, startService } from '../../src/service/index.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { consoleStatus } from './helpers/console-status.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { HOSTS, type PlayerBot } from './helpers/hosts.js';
import { API_KEY, NETWORK } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/** The fastest flush config.yml allows, so the test waits little. */
const BAILIFF_CONFIG = { chatLog: { flushIntervalMs: 200 } };
const SECRET = 'hunter2-secret-password';

interface StoredLine {
  server: string;
  player: string;
  uuid: string;
  kind: string;
  text: string;
}

/** What the service stored, read from its own SQLite file. */
function linesAtService(dbPath: string): StoredLine[] {
  const db = openDb(dbPath, { readonly: true });
  try {
    return db
      .prepare<[], StoredLine>(
        `SELECT server_name AS server, player_name AS player, player_uuid AS uuid, kind, text
         FROM service_chat_lines ORDER BY at, id`,
      )
      .all();
  } finally {
    db.close();
  }
}

/** The plugin's own outbox rows of the chat log (payloads included), read from its SQLite file. */
function chatRowsAtPlugin(serverDir: string): { status: string; payload: string }[] {
  const db = openDb(join(serverDir, 'plugin-data', 'Bailiff', 'bailiff.db'), { readonly: true });
  try {
    return db
      .prepare<[], { status: string; payload: string }>(
        "SELECT status, payload FROM outbox WHERE operation = 'sendChatLog'",
      )
      .all();
  } finally {
    db.close();
  }
}

function seed(servers: Array<{ name: string; apiKey: string }>) {
  return { networks: [{ name: NETWORK, servers, players: [], punishments: [] }] };
}

/**
 * Chat and command logs with the real pieces on each host: the reference service, a game server
 * running Bailiff (`bailiff start`) and a real client. What the player says and types reaches the
 * service's store (a muted player's refused line too); a login command with its password never
 * leaves the server.
 */
describe.each(HOSTS)('chat log end to end on $name', { timeout: 120_000 }, (host) => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-chat-log-'));
  const serviceDb = join(dir, 'service.db');
  const serverDir = join(dir, 'server');
  let service: RunningService;
  let game: RunningGameServer;
  const bots: PlayerBot[] = [];

  beforeAll(async () => {
    service = await startService({
      host: '127.0.0.1',
      port: 0,
      dbPath: serviceDb,
      seed: seed([{ name: 'lobby', apiKey: API_KEY }]),
    });
    writeTestServerFolder(serverDir, BAILIFF_CONFIG, host.serverSettings);
    game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stores the player's chat and commands at the service, a muted line too, and never a secret command", async () => {
    const joined = await host.join(game.port, 'Chatter');
    if (!joined.joined) throw new Error(`Chatter was refused: ${joined.reason}`);
    const chatter = joined.bot;
    bots.push(chatter);

    chatter.chat('first-logged-line');
    chatter.command(`login ${SECRET}`);
    chatter.command(`l ${SECRET}`);
    chatter.command(`register ${SECRET} ${SECRET}`);
    chatter.command('tickets');
    await waitFor('the first lines at the service', () =>
      linesAtService(serviceDb).some((line) => line.text === '/tickets'),
    );

    game.console('tempmute Chatter 1h chat-log-test');
    await waitFor('the mute notice', () => chatter.seen.some((line) => line.includes('You have been muted')));
    chatter.chat('muted-logged-line');
    await waitFor('the mute refusal', () => chatter.seen.some((line) => line.includes('You are muted')));
    await waitFor('the muted line at the service', () =>
      linesAtService(serviceDb).some((line) => line.text === 'muted-logged-line'),
    );
    await waitFor('every chat batch delivered', () =>
      chatRowsAtPlugin(serverDir).every((row) => row.status === 'sent'),
    );

    const stored = linesAtService(serviceDb).filter((line) => line.player === 'Chatter');
    expect(stored.map(({ kind, text }) => `${kind} ${text}`)).toEqual([
      'chat first-logged-line',
      'command /tickets',
      'chat muted-logged-line',
    ]);
    expect(new Set(stored.map((line) => line.server))).toEqual(new Set(['lobby']));
    expect(stored[0]!.uuid.toLowerCase()).toBe(host.uuidOf('Chatter').toLowerCase());
    expect(JSON.stringify(linesAtService(serviceDb))).not.toContain(SECRET);
    expect(JSON.stringify(chatRowsAtPlugin(serverDir))).not.toContain(SECRET);
  });
});

/**
 * A contract-only service (the extension routes answer 404): the first batch finds the route
 * missing, then nothing more is sent and nothing piles up in the plugin's outbox; chat goes on.
 */
describe('chat log against a contract-only service', { timeout: 120_000 }, () => {
  const host = HOSTS[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-chat-log-contract-'));
  const serverDir = join(dir, 'server');
  let service: RunningService;
  let proxy: ContractProxy;
  let game: RunningGameServer;
  const bots: PlayerBot[] = [];

  beforeAll(async () => {
    service = await startService({
      host: '127.0.0.1',
      port: 0,
      dbPath: join(dir, 'service.db'),
      seed: seed([{ name: 'lobby', apiKey: API_KEY }]),
    });
    proxy = await startContractProxy({ upstream: () => service.url, profile: 'contract' });
    writeTestServerFolder(serverDir, { ...BAILIFF_CONFIG, sync: { stream: 'off' } }, host.serverSettings);
    game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await proxy?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends one batch, learns the route is missing, then sends and keeps nothing', async () => {
    const joined = await host.join(game.port, 'Talker');
    if (!joined.joined) throw new Error(`Talker was refused: ${joined.reason}`);
    const talker = joined.bot;
    const listener = await host.join(game.port, 'Listener');
    if (!listener.joined) throw new Error(`Listener was refused: ${listener.reason}`);
    bots.push(talker, listener.bot);
    const chatLogRequests = () => proxy.log.requests.filter((request) => request.path.endsWith('/chat-log'));

    talker.chat('probe-line');
    await waitFor('the probe batch', () => chatLogRequests().length === 1);
    await waitFor('the plugin to know the chat log is not offered', async () =>
      (await consoleStatus(game)).includes('chat log not offered'),
    );
    for (let index = 0; index < 20; index += 1) talker.chat(`unsent-line-${index}`);
    await waitFor('the other player to hear the last line', () =>
      listener.bot.seen.some((line) => line.includes('unsent-line-19')),
    );
    // A clean stop writes whatever the chat log still holds to the outbox: it must hold nothing.
    for (const bot of bots.splice(0)) await bot.quit().catch(() => {});
    expect(await game.stop()).toBe(0);

    expect(chatLogRequests()).toHaveLength(1);
    expect(chatLogRequests()[0]!.status).toBe(404);
    const rows = chatRowsAtPlugin(serverDir);
    expect(rows.filter((row) => row.status !== 'sent')).toEqual([]);
    expect(JSON.stringify(rows)).not.toContain('unsent-line');
  });
});
