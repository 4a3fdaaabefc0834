import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createModerationClient } from '../src/api/client.js';
import { openDb } from '../src/db/open-db.js';
import { createOutbox } from '../src/outbox/index.js';
import { type ServiceSeed, startService } from '../src/service/index.js';
import type { BenchResult } from './result.js';

const ROWS = 6000;
const CONCURRENCY = 32;
const API_KEY = 'bench-outbox-drain-key';
const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'cli', 'main.js');
const uuidOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function seed(): ServiceSeed {
  return {
    networks: [
      {
        name: 'bench',
        servers: [{ name: 'bench', apiKey: API_KEY }],
        players: Array.from({ length: ROWS }, (_, n) => ({ uuid: uuidOf(n), name: `player${n}` })),
        punishments: Array.from({ length: ROWS }, (_, n) => ({
          id: `ban-${n}`,
          targetUuid: uuidOf(n),
          typeOrdinal: 2,
        })),
      },
    ],
  };
}

/** `bailiff service` in its own process, as in production; resolves with its URL once it listens. */
async function spawnService(seedPath: string): Promise<{ url: string; child: ChildProcess }> {
  const unlimited = ['--rate-limit-per-minute', '100000000', '--write-rate-limit-per-minute', '100000000'];
  const args = [CLI, 'service', '--port', '0', '--seed', seedPath, ...unlimited];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start: ${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`service exited (${code}): ${output}`)));
  });
  return { url, child };
}

/** Drains ROWS acknowledgements from a file-backed outbox to `url`; returns calls per second. */
async function drain(url: string, dir: string): Promise<{ perSecond: number; dead: number }> {
  const db = openDb(join(dir, `outbox-${Date.now()}.db`));
  const outbox = createOutbox({
    db,
    client: createModerationClient({ baseUrl: url, apiKey: API_KEY }),
    settings: { concurrency: CONCURRENCY, requestsPerMinute: 10_000_000 },
  });
  try {
    db.transaction(() => {
      for (let n = 0; n < ROWS; n += 1) {
        const payload = { punishmentId: `ban-${n}`, playerUuid: uuidOf(n), success: true };
        outbox.enqueue({ operation: 'acknowledgePunishment', payload }, { idempotencyKey: `ack:ban-${n}` });
      }
    })();
    let settled = 0;
    let dead = 0;
    const done = new Promise<void>((resolve) => {
      const count = () => {
        settled += 1;
        if (settled === ROWS) resolve();
      };
      outbox.events.on('outbox:sent', count);
      outbox.events.on('outbox:dead', () => {
        dead += 1;
        count();
      });
    });
    const started = performance.now();
    outbox.start();
    await done;
    return { perSecond: ROWS / ((performance.now() - started) / 1000), dead };
  } finally {
    await outbox.stop();
    db.close();
  }
}

/** The same calls straight through the client, no outbox: the ceiling this machine allows. */
async function rawClientCeiling(url: string): Promise<number> {
  const client = createModerationClient({ baseUrl: url, apiKey: API_KEY });
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let n = next++; n < ROWS; n = next++) {
      await client.acknowledgePunishment({ punishmentId: `ban-${n}`, playerUuid: uuidOf(n), success: true });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return ROWS / ((performance.now() - started) / 1000);
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-outbox-drain-'));
  const seedPath = join(dir, 'seed.json');
  writeFileSync(seedPath, JSON.stringify(seed()));
  let child: ChildProcess | undefined;
  try {
    const spawned = await spawnService(seedPath);
    child = spawned.child;
    const separate = await drain(spawned.url, dir);
    const ceiling = await rawClientCeiling(spawned.url);
    child.kill('SIGTERM');
    child = undefined;
    const service = await startService({
      port: 0,
      seed: seed(),
      rateLimitPerMinute: 100_000_000,
      writeRateLimitPerMinute: 100_000_000,
    });
    const shared = await drain(service.url, dir).finally(() => service.close());
    const notes = `${ROWS} acknowledgements from a WAL file outbox, concurrency ${CONCURRENCY}`;
    return [
      {
        name: 'drain to the reference service (own process)',
        unit: 'calls/s',
        value: separate.perSecond,
        target: '>= 2000 calls/s',
        notes: `${notes}; bailiff service in a child process; ${separate.dead} dead`,
      },
      {
        name: 'same calls without the outbox (client only, own process)',
        unit: 'calls/s',
        value: ceiling,
        notes: 'what the client and service allow on this machine, for comparison',
      },
      {
        name: 'drain to the reference service (same process)',
        unit: 'calls/s',
        value: shared.perSecond,
        notes: `${notes}; service, client and outbox share one event loop; ${shared.dead} dead`,
      },
    ];
  } finally {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}
