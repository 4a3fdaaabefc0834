import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createModerationClient } from '../src/api/client.js';
import { mustJoin, offlineUuid } from '../test/e2e/helpers/bots.js';
import { startGameServerProcess, writeTestServerFolder } from '../test/e2e/helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from '../test/e2e/helpers/service.js';
import { waitFor } from '../test/e2e/helpers/wait.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';

const RUNS = 20;
// Shorter than the default 2000 ms to keep the bench near a minute; the target scales with it.
const POLL_INTERVAL_MS = 1000;

/**
 * Create at the service -> the online bot kicked, measured at the bot: a real service, a real
 * flying-squid server (`bailiff start` child process) and a mineflayer bot per run.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-latency-'));
  const service = await startTestService({ dbPath: join(dir, 'service.db'), players: [] });
  const client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
  const admin = adminApi(() => service.url);
  const results: BenchResult[] = [];
  try {
    for (const mode of ['stream', 'polling'] as const) {
      const serverDir = join(dir, mode);
      writeTestServerFolder(serverDir, {
        sync: { stream: mode === 'stream' ? 'auto' : 'off', pollIntervalMs: POLL_INTERVAL_MS },
      });
      const game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: service.url, BAILIFF_API_KEY: API_KEY });
      try {
        if (mode === 'stream') await waitFor('the stream', () => game.output().includes('"state":"connected"'));
        const samples: number[] = [];
        for (let at = 0; at < RUNS; at += 1) {
          const name = `${mode.slice(0, 4)}${at}`;
          await admin.addPlayer(offlineUuid(name), name);
          const bot = await mustJoin(game.port, name);
          // A random phase against the poll timer, else every run would wait the same part of it.
          if (mode === 'polling') await new Promise((resolve) => setTimeout(resolve, Math.random() * POLL_INTERVAL_MS));
          const start = performance.now();
          await client.createPunishmentDynamic({ targetUuid: offlineUuid(name), typeOrdinal: 2, issuerName: 'bench' });
          await waitFor('the kick', () => bot.kickedWith, POLL_INTERVAL_MS * 3, 1);
          samples.push(performance.now() - start);
          await bot.quit();
        }
        results.push({
          name: `create -> online player kicked (${mode === 'stream' ? 'stream' : `polling only, every ${POLL_INTERVAL_MS} ms`})`,
          unit: 'ms',
          ...summarize(samples),
          target: mode === 'stream' ? 'p99 <= 250 ms' : `p99 <= ${POLL_INTERVAL_MS + 250} ms`,
          notes: `${RUNS} runs; from sending the create to the bot's kicked event`,
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
