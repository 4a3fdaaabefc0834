import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createModerationClient } from '../src/api/client.js';
import { startGameServerProcess, writeTestServerFolder } from '../test/e2e/helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from '../test/e2e/helpers/service.js';
import { waitFor } from '../test/e2e/helpers/wait.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';
import { BENCH_HOSTS } from './support/hosts.js';

const RUNS = 15;
/**
 * A client counts as spawned before the server has finished sending it the world (on Bedrock the
 * crafting data and chunks take a few hundred ms more); a kick queued behind them would time the
 * join, not the kick. Each run waits this long after spawning.
 */
const SETTLE_MS = 1000;

/**
 * Create at the service -> the online player kicked, on each host: the reference service (stream
 * on), `bailiff start` as a child process and a real client of the host's edition per run.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-host-latency-'));
  const service = await startTestService({ dbPath: join(dir, 'service.db'), players: [] });
  const client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
  const admin = adminApi(() => service.url);
  const results: BenchResult[] = [];
  try {
    for (const host of BENCH_HOSTS) {
      const serverDir = join(dir, host.name);
      writeTestServerFolder(serverDir, undefined, host.settings);
      const game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
      try {
        await waitFor('the stream', () => game.output().includes('"state":"connected"'));
        const samples: number[] = [];
        for (let at = 0; at < RUNS; at += 1) {
          const name = `${host.name.slice(0, 4)}Lat${at}`;
          await admin.addPlayer(host.uuidOf(name), name);
          const player = await host.join(game.port, name);
          await new Promise((done) => setTimeout(done, SETTLE_MS));
          const start = performance.now();
          await client.createPunishmentDynamic({ targetUuid: host.uuidOf(name), typeOrdinal: 2, issuerName: 'bench' });
          await waitFor('the kick', () => player.kickedWith, 3000, 1);
          samples.push(performance.now() - start);
          await player.quit();
        }
        results.push({
          name: `${host.name}: create -> online player kicked (stream)`,
          unit: 'ms',
          ...summarize(samples),
          target: 'p99 <= 250 ms',
          notes: `${RUNS} runs, ${host.client}; from sending the create to the client's kick, ${SETTLE_MS} ms after spawning`,
        });
      } finally {
        await game.stop();
      }
    }
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
