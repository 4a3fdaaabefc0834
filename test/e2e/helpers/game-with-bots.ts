import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createModerationClient } from '../../../src/api/client.js';
import type { ModerationApi } from '../../../src/api/moderation-api.js';
import { mustJoin, type TestBot } from './bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './game-server.js';
import { API_KEY, startTestService } from './service.js';
import { waitFor } from './wait.js';

export interface GameWithBots {
  service: Awaited<ReturnType<typeof startTestService>>;
  game: RunningGameServer;
  /** A client of the reference service with the game server's key. */
  api(): ModerationApi;
  /** A bot that joined (by `join` or the `joined` option). */
  bot(name: string): TestBot;
  join(name: string): Promise<TestBot>;
  /** Quits `bot` at `close()` too (one joined some other way). */
  track(bot: TestBot): void;
  /** Waits for a line containing `text` among what `who` saw; resolves with that line. */
  sees(who: TestBot, text: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * The in-game end-to-end set-up: the reference service knowing `players`, `bailiff start` running
 * flying-squid with Bailiff (its `ops` and in-game `permissions`, an optional Bailiff config), and
 * mineflayer bots for `joined`, in that order.
 */
export async function startGameWithBots(options: {
  dirPrefix: string;
  players: string[];
  joined: string[];
  ops?: string[];
  permissions?: Record<string, string[]>;
  bailiffConfig?: Record<string, unknown>;
  seesTimeoutMs?: number;
}): Promise<GameWithBots> {
  const dir = mkdtempSync(join(tmpdir(), options.dirPrefix));
  const bots = new Map<string, TestBot>();
  let service: GameWithBots['service'] | undefined;
  let game: RunningGameServer | undefined;
  const close = async () => {
    for (const each of bots.values()) await each.quit().catch(() => {});
    await game?.stop();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: options.players });
    const server = join(dir, 'server');
    writeTestServerFolder(server, options.bailiffConfig);
    if (options.ops) appendFileSync(join(server, 'server.yml'), `ops: [${options.ops.join(', ')}]\n`);
    if (options.permissions) {
      const lines = Object.entries(options.permissions).map(([name, nodes]) => `  ${name}: [${nodes.join(', ')}]`);
      writeFileSync(join(server, 'permissions.yml'), `players:\n${lines.join('\n')}\n`);
    }
    game = await startGameServerProcess(server, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
    const running = { service, game };
    const join_ = async (name: string) => {
      const joined = await mustJoin(running.game.port, name);
      bots.set(name, joined);
      return joined;
    };
    for (const name of options.joined) await join_(name);
    return {
      ...running,
      api: () => createModerationClient({ baseUrl: running.service.url, apiKey: API_KEY }),
      bot: (name) => {
        const found = bots.get(name);
        if (!found) throw new Error(`no bot named ${name} joined`);
        return found;
      },
      join: join_,
      track: (bot) => bots.set(bot.name, bot),
      sees: (who, text, timeoutMs = options.seesTimeoutMs ?? 15_000) =>
        waitFor(`${who.name} to see "${text}"`, () => who.seen.find((line) => line.includes(text)), timeoutMs),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
