import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { type ServiceSeed, startService } from '../src/service/index.js';
import { type BenchResult, summarize } from './result.js';

const STORED = 1_000_000;
const PLAYERS = 10_000;
const SAMPLES = 1000;
const API_KEY = 'bench-service-recent-api-key';
const DAY_MS = 86_400_000;

const uuidOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function seed(): ServiceSeed {
  const players = Array.from({ length: PLAYERS }, (_, n) => ({ uuid: uuidOf(n), name: `player${n}` }));
  return { networks: [{ name: 'bench', servers: [{ name: 'bench', apiKey: API_KEY }], players }] };
}

// One transaction of prepared inserts, spread uniformly over the last year.
function fillPunishments(dbPath: string, nowMs: number): void {
  const db = new Database(dbPath);
  const networkId = (db.prepare('SELECT id FROM service_networks WHERE name = ?').get('bench') as { id: number }).id;
  const insert = db.prepare(
    `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
       duration, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'bench', ?, 'bench reason', ?, 'active', ?, ?)`,
  );
  db.transaction(() => {
    for (let n = 0; n < STORED; n += 1) {
      const player = n % PLAYERS;
      const createdAt = nowMs - Math.floor(((STORED - n) / STORED) * 365 * DAY_MS);
      insert.run(
        networkId,
        `b${n}`,
        uuidOf(player),
        `player${player}`,
        n % 15,
        n % 3 ? DAY_MS : -1,
        createdAt,
        createdAt,
      );
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function time(samples: number, call: () => Promise<Response>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    const response = await call();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`bench call failed with ${response.status}`);
    durations.push(performance.now() - started);
  }
  return durations;
}

/** `recent` and `create` latency over HTTP on 127.0.0.1 with 1,000,000 punishments stored. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-recent-'));
  const dbPath = join(dir, 'service.db');
  try {
    const setup = await startService({ port: 0, dbPath, seed: seed() });
    await setup.close();
    const fillStarted = performance.now();
    fillPunishments(dbPath, Date.now());
    const fillSeconds = (performance.now() - fillStarted) / 1000;

    const service = await startService({ port: 0, dbPath, rateLimitPerMinute: 1_000_000 });
    try {
      const base = `${service.url}/v1/minecraft/punishments`;
      const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
      // Warm up the JIT and the page cache before measuring.
      await time(200, () => fetch(`${base}/recent`, { headers }));
      await time(200, () => fetch(`${base}/recent?hours=8760`, { headers }));
      const recent = summarize(await time(SAMPLES, () => fetch(`${base}/recent`, { headers })));
      const wide = summarize(await time(SAMPLES, () => fetch(`${base}/recent?hours=8760`, { headers })));
      let n = 0;
      const create = summarize(
        await time(SAMPLES, () =>
          fetch(`${base}/create`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ targetUuid: uuidOf(n++ % PLAYERS), type_ordinal: 6, reason: 'bench' }),
          }),
        ),
      );
      const notes = `${STORED.toLocaleString('en')} stored, HTTP round trip on 127.0.0.1, ${SAMPLES} sequential calls; fill took ${fillSeconds.toFixed(1)} s`;
      return [
        { name: 'recent (48 h, 100 newest)', unit: 'ms', ...recent, target: 'p99 <= 10 ms', notes },
        { name: 'recent (8760 h, 100 newest)', unit: 'ms', ...wide, target: 'p99 <= 10 ms', notes },
        { name: 'create punishment', unit: 'ms', ...create, notes },
      ];
    } finally {
      await service.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
