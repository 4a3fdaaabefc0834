import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { type ServiceSeed, startService } from '../src/service/index.js';
import { redactAddresses } from '../src/service/panel/redact-addresses.js';
import { type BenchResult, summarize } from './result.js';

const STORED = 1_000_000;
const PLAYERS = 10_000;
const SAMPLES = 300;
const ADMIN_TOKEN = 'bench-public-list-admin-token-0123456789';
const DAY_MS = 86_400_000;

const uuidOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function seed(): ServiceSeed {
  const players = Array.from({ length: PLAYERS }, (_, n) => ({ uuid: uuidOf(n), name: `player${n}` }));
  return {
    networks: [
      {
        name: 'bench',
        servers: [{ name: 'bench', apiKey: 'bench-public-list-api-key-0123' }],
        players,
        publicList: true,
      },
    ],
  };
}

/**
 * Reasons as staff write them: one in ten names an address (glued, with a port, in brackets), the
 * others hold dots and colons (a version, a time), so every reason is read by the redactor in full.
 */
function reasonOf(n: number): string {
  if (n % 10 === 0) return `alt of IP:203.0.113.${n % 256}, joined from [2001:db8::${(n % 65536).toString(16)}]:25565`;
  return `x-ray on 1.21.4 at 12:30, reported by player${n % PLAYERS}`;
}

// One transaction of prepared inserts over the last year; every type, every 50th a warning.
function fillPunishments(dbPath: string, nowMs: number): { middle: string } {
  const db = new Database(dbPath);
  const networkId = (db.prepare('SELECT id FROM service_networks WHERE name = ?').get('bench') as { id: number }).id;
  const insert = db.prepare(
    `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
       duration, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'bench', ?, ?, ?, ?, ?, ?)`,
  );
  let middle = '';
  db.transaction(() => {
    for (let n = 0; n < STORED; n += 1) {
      const player = n % PLAYERS;
      const createdAt = nowMs - Math.floor(((STORED - n) / STORED) * 365 * DAY_MS);
      const status = n % 50 === 0 ? 'warning' : n % 4 === 0 ? 'expired' : 'active';
      const row = insert.run(
        networkId,
        `b${n}`,
        uuidOf(player),
        `player${player}`,
        n % 15,
        reasonOf(n),
        n % 3 ? DAY_MS : -1,
        status,
        createdAt,
        createdAt,
      );
      if (n === STORED / 2) middle = `${createdAt}.${row.lastInsertRowid}`;
    }
  })();
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { middle };
}

async function time(samples: number, url: () => string, expected = 200): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    const response = await fetch(url(), { redirect: 'manual' });
    await response.arrayBuffer();
    if (response.status !== expected) throw new Error(`bench page ${url()} answered ${response.status}`);
    durations.push(performance.now() - started);
  }
  return durations;
}

/** Microseconds the redactor takes over `texts`, each of `SAMPLES` times. */
function redactTimes(texts: readonly string[]): number[] {
  const durations: number[] = [];
  for (let i = 0; i < 50 + SAMPLES; i += 1) {
    const started = performance.now();
    for (const text of texts) redactAddresses(text);
    if (i >= 50) durations.push((performance.now() - started) * 1000);
  }
  return durations;
}

/** The redactor alone, in this process: a page's reasons, and the worst text it can be given. */
function redactorResults(): BenchResult[] {
  const page = Array.from({ length: 50 }, (_, n) => reasonOf(n));
  // Hex groups and colons for ever: every group starts an address of eight; the longest text a reason may hold.
  const worst = 'a:'.repeat(2000);
  return [
    {
      name: 'redactor: the 50 reasons of a page (5 with addresses)',
      unit: 'us',
      ...summarize(redactTimes(page)),
      notes: `in-process, ${SAMPLES} samples`,
    },
    {
      name: 'redactor: one 4,000-character text of hex groups and colons (worst case)',
      unit: 'us',
      ...summarize(redactTimes([worst])),
      notes: `in-process, ${SAMPLES} samples; linear: each start reads at most 45 characters`,
    },
  ];
}

/** Pages of the public ban list over HTTP on 127.0.0.1 with 1,000,000 punishments stored. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-public-'));
  const dbPath = join(dir, 'service.db');
  try {
    const setup = await startService({ port: 0, dbPath, seed: seed(), adminToken: ADMIN_TOKEN });
    await setup.close();
    const fillStarted = performance.now();
    const { middle } = fillPunishments(dbPath, Date.now());
    const fillSeconds = (performance.now() - fillStarted) / 1000;

    const service = await startService({ port: 0, dbPath, adminToken: ADMIN_TOKEN });
    try {
      const base = `${service.url}/panel/public/bench/`;
      let player = 0;
      const pages: Array<[string, () => string, number?]> = [
        ['first page, all kinds', () => base],
        ['first page, mutes', () => `${base}?kind=mute`],
        ['first page, warnings (1 in 50)', () => `${base}?kind=warning`],
        ['page at the 500,000th row', () => `${base}?before=${middle}`],
        ['page at the 500,000th row, bans', () => `${base}?kind=ban&before=${middle}`],
        ['player page (100 punishments)', () => `${base}player/${uuidOf(player++ % PLAYERS)}`],
        ['name search (303 to the player)', () => `${base}?player=player${player++ % PLAYERS}`, 303],
      ];
      for (const [, url, status] of pages) await time(50, url, status);
      const first = await (await fetch(base)).text();
      if (!first.includes('[address hidden]') || first.includes('203.0.113.')) {
        throw new Error('the first page does not hide the addresses of its reasons');
      }
      const notes = `${STORED.toLocaleString('en')} stored, 50 rows a page (addresses in 1 reason of 10, all hidden), HTTP round trip on 127.0.0.1, ${SAMPLES} sequential calls; fill took ${fillSeconds.toFixed(1)} s`;
      const results: BenchResult[] = redactorResults();
      for (const [name, url, status] of pages) {
        results.push({
          name,
          unit: 'ms',
          ...summarize(await time(SAMPLES, url, status)),
          target: 'p99 <= 50 ms',
          notes,
        });
      }
      return results;
    } finally {
      await service.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
