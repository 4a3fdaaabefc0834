import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE } from '../../../../plugin/bailiff-plugin.js';
import { connectInspector, type InspectedProcess, inspectorEnv, inspectorUrlIn } from '../../../support/inspector.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from '../game-server.js';
import type { HostUnderTest } from '../hosts.js';
import { waitFor } from '../wait.js';
import { SOAK_KEYS, type SoakEdition } from './soak-population.js';
import type { LoopDelay, MemorySample } from './soak-tally.js';

const MB = 1024 * 1024;

/** A game server under soak: `bailiff start` in a child process, watched through its inspector. */
export interface SoakGame {
  game: RunningGameServer;
  serverDir: string;
  /** Collects garbage in the server and records what is left, with `joins` so far. */
  sample(atMs: number, joins: number): Promise<MemorySample>;
  pluginFiles(): { db: number; wal: number };
  /** The server's event-loop delay since the cache was filled, the sample's garbage collections left out. */
  loopDelay(): Promise<LoopDelay>;
  stop(): Promise<void>;
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/**
 * Evaluated in the server: a histogram of its event-loop delay, read and reset at each memory
 * sample (a window of 15 s) and 50 ms after that sample's forced GCs, so the GCs' own pause (a few
 * hundred ms on a loaded machine, the soak's doing, not the server's) is not counted. The p99 is
 * the worst window's (an interval histogram cannot be added to another).
 */
const LOOP = 'globalThis.__bailiffSoakLoop';
const START_LOOP_MONITOR = `(() => {
  const live = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 });
  live.enable();
  ${LOOP} = { live, p99: 0, max: 0, sum: 0, count: 0 };
  return true;
})()`;
const FOLD_LOOP = `(() => {
  const loop = ${LOOP};
  if (loop.live.count > 0) {
    loop.p99 = Math.max(loop.p99, loop.live.percentile(99));
    loop.max = Math.max(loop.max, loop.live.max);
    loop.sum += loop.live.mean * loop.live.count;
    loop.count += loop.live.count;
  }
  loop.live.reset();
  return true;
})()`;
const RESET_LOOP_AFTER_GC = `new Promise((resolve) => setTimeout(resolve, 50)).then(() => { ${LOOP}.live.reset(); return true; })`;
const READ_LOOP = `(() => {
  const loop = ${LOOP};
  return { p99Ms: loop.p99 / 1e6, maxMs: loop.max / 1e6, meanMs: loop.count === 0 ? 0 : loop.sum / loop.count / 1e6 };
})()`;

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
    await inspector.evaluate(START_LOOP_MONITOR);
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
      await live.evaluate(FOLD_LOOP);
      await live.collectGarbage();
      await live.evaluate(RESET_LOOP_AFTER_GC);
      const usage = await live.memoryUsage();
      return { atMs, joins, heapMb: usage.heapUsed / MB, externalMb: usage.external / MB, rssMb: rssMb(game.pid) };
    },
    async loopDelay() {
      await live.evaluate(FOLD_LOOP);
      return (await live.evaluate(READ_LOOP)) as LoopDelay;
    },
    pluginFiles: () => ({ db: sizeOf(pluginDb), wal: sizeOf(`${pluginDb}-wal`) }),
    async stop() {
      live.close();
      await game.stop();
    },
  };
}
