import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mustJoin, offlineUuid } from '../test/e2e/helpers/bots.js';
import { startGameServerProcess, writeTestServerFolder } from '../test/e2e/helpers/game-server.js';
import { API_KEY, startTestService } from '../test/e2e/helpers/service.js';
import { punishmentsAtService } from '../test/e2e/helpers/service-rows.js';
import { startContractProxy } from '../test/support/contract-proxy.js';
import type { BenchResult } from './result.js';
import { summarize } from './result.js';

// The numbers: a non-staff player sending /tickets and /ticket <id> 30 times a second
// for 20 s against a service that allows the key 120 calls a minute.
const FLOOD_MS = 20_000;
const FLOOD_PER_SECOND = 30;
const SERVICE_LIMIT_PER_MINUTE = 120;
const BANS = 10;
const BAN_WAIT_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds until the active ban of `name` is at the service (polled every 20 ms), or undefined. */
async function timeToService(serviceUrl: string, name: string, start: number): Promise<number | undefined> {
  for (let attempt = 0; attempt < BAN_WAIT_MS / 20; attempt += 1) {
    const found = (await punishmentsAtService(serviceUrl)).some(
      (punishment) => punishment.targetUuid === offlineUuid(name) && punishment.status === 'active',
    );
    if (found) return performance.now() - start;
    await sleep(20);
  }
  return undefined;
}

/**
 * Console bans during a player's ticket flood, with the default config (cooldown 3 s, player
 * share 10 % of 900 a minute): how long each ban takes to reach the service, whether any was
 * queued, and how many of the flood's commands reached the service (counted by a proxy).
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-player-flood-'));
  const victims = Array.from({ length: BANS }, (_, at) => `Victim${at}`);
  const service = await startTestService({
    dbPath: join(dir, 'service.db'),
    players: ['Flooder', ...victims],
    rateLimitPerMinute: SERVICE_LIMIT_PER_MINUTE,
  });
  const proxy = await startContractProxy({
    upstream: () => service.url,
    profile: 'no-stream',
    whenUpstreamDown: 'bad-gateway',
  });
  const server = join(dir, 'server');
  writeTestServerFolder(server);
  const game = await startGameServerProcess(server, { BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });
  try {
    const flooder = await mustJoin(game.port, 'Flooder');
    const ticketCallsBefore = proxy.log.requests.filter((call) => call.path.includes('/tickets/')).length;
    const commands = ['/tickets', '/ticket t-1', '/ticket t-2'];
    let sent = 0;
    const flood = setInterval(() => {
      flooder.bot.chat(commands[sent % commands.length]!);
      sent += 1;
    }, 1000 / FLOOD_PER_SECOND);
    const latencies: number[] = [];
    let missing = 0;
    const floodStart = performance.now();
    try {
      for (const victim of victims) {
        const start = performance.now();
        game.console(`ban ${victim} during the flood`);
        const ms = await timeToService(service.url, victim, start);
        if (ms === undefined) missing += 1;
        else latencies.push(ms);
        await sleep(Math.max(0, FLOOD_MS / BANS - (performance.now() - start)));
      }
      await sleep(Math.max(0, FLOOD_MS - (performance.now() - floodStart)));
    } finally {
      clearInterval(flood);
    }
    const floodSeconds = (performance.now() - floodStart) / 1000;
    // What the console is told when a creation cannot be sent now.
    const queued = game.output().split('applied here and queued').length - 1;
    const reached = proxy.log.requests.filter((call) => call.path.includes('/tickets/')).length - ticketCallsBefore;
    const told = flooder.seen.filter((line) => line.startsWith('Slow down')).length;
    await flooder.quit();
    return [
      {
        name: `console ban reaching the service during a ${FLOOD_PER_SECOND}/s player ticket flood (service limit ${SERVICE_LIMIT_PER_MINUTE}/min)`,
        unit: 'ms',
        ...summarize(latencies),
        target: 'p99 <= 2000 ms',
        notes: `${latencies.length} of ${BANS} bans at the service (${missing} missing), ${queued} queued`,
      },
      {
        name: 'ticket calls of the flood that reached the service',
        unit: 'calls',
        value: reached,
        target: `<= about one per 3 s cooldown (${Math.ceil(floodSeconds / 3) + 1})`,
        notes: `${sent} commands in ${floodSeconds.toFixed(1)} s; the player was told to slow down ${told} times`,
      },
    ];
  } finally {
    await game.stop();
    await proxy.close();
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
