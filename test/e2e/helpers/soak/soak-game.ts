import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE } from '../../../../plugin/bailiff-plugin.js';
import { connectInspector, type InspectedProcess, inspectorEnv, inspectorUrlIn } from '../../../support/inspector.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from '../game-server.js';
import type { HostUnderTest } from '../hosts.js';
import { waitFor } from '../wait.js';
import { SOAK_KEYS, type SoakEdition } from './soak-population.js';
import type { MemorySample } from './soak-tally.js';

const MB = 1024 * 1024;

/** A game server under soak: `bailiff start` in a child process, watched through its inspector. */
export interface SoakGame {
  game: RunningGameServer;
  serverDir: string;
  /** Collects garbage in the server and records what is left, with `joins` so far. */
  sample(atMs: number, joins: number): Promise<MemorySample>;
  pluginFiles(): { db: number; wal: number };
  stop(): Promise<void>;
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

const sizeOf = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/**
 * Starts `bailiff start` for `host` in `serverDir` against the soak's service, with the loopback
 * test settings and Bailiff's defaults (the login check's 300 ms unless told, the stream), and waits until the
 * plugin has every active ban of the service in its cache.
 */
export async function startSoakGame(
  host: HostUnderTest,
  edition: SoakEdition,
  serverDir: string,
  serviceUrl: string,
  activeBans: number,
  /** The login check's limit; Bailiff's default (300 ms) without it. */
  loginCheckTimeoutMs?: number,
): Promise<SoakGame> {
  const config =
    loginCheckTimeoutMs === undefined ? undefined : { enforcement: { loginCheck: { timeoutMs: loginCheckTimeoutMs } } };
  writeTestServerFolder(serverDir, config, host.serverSettings);
  const game = await startGameServerProcess(serverDir, {
    BAILIFF_API_URL: serviceUrl,
    BAILIFF_API_KEY: SOAK_KEYS[edition],
    ...inspectorEnv(),
  });
  let inspector: InspectedProcess | undefined;
  try {
    inspector = await connectInspector(await waitFor('the inspector', () => inspectorUrlIn(game.output())));
    await waitFor(
      'every active ban in the cache',
      async () => {
        const from = game.output().length;
        game.console('bailiff status');
        const status = await waitFor('the status', () => {
          const printed = game.output().slice(from);
          return /Cached punishments:\D*?(\d+)/.exec(printed)?.[1];
        });
        return Number(status) >= activeBans;
      },
      120_000,
      2000,
    );
  } catch (error) {
    inspector?.close();
    await game.stop();
    throw error;
  }
  const pluginDb = join(serverDir, 'plugin-data', 'Bailiff', DATABASE_FILE);
  const live = inspector;
  return {
    game,
    serverDir,
    async sample(atMs, joins) {
      await live.collectGarbage();
      const usage = await live.memoryUsage();
      return { atMs, joins, heapMb: usage.heapUsed / MB, externalMb: usage.external / MB, rssMb: rssMb(game.pid) };
    },
    pluginFiles: () => ({ db: sizeOf(pluginDb), wal: sizeOf(`${pluginDb}-wal`) }),
    async stop() {
      live.close();
      await game.stop();
    },
  };
}
