import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { type ServiceSeed, startService } from '../src/service/index.js';
import { type BenchResult, summarize } from './result.js';

const TICKETS = 20_000;
/** One ticket in five is an open report. */
const OPEN_EVERY = 5;
const NOTICES = 100_000;
/** One notice in a hundred is an unread staff reply. */
const UNREAD_TEXT_EVERY = 100;
const PLAYERS = 10_000;
const SAMPLES = 500;
const API_KEY = 'bench-service-staff-reports-key';
const DAY_MS = 86_400_000;

const uuidOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function seed(): ServiceSeed {
  const players = Array.from({ length: PLAYERS }, (_, n) => ({ uuid: uuidOf(n), name: `player${n}` }));
  return { networks: [{ name: 'bench', servers: [{ name: 'bench', apiKey: API_KEY }], players }] };
}

// One transaction of prepared inserts over the last year: tickets of every type, and notices.
function fill(dbPath: string, nowMs: number): void {
  const db = new Database(dbPath);
  const networkId = (db.prepare('SELECT id FROM service_networks WHERE name = ?').get('bench') as { id: number }).id;
  const ticket = db.prepare(
    `INSERT INTO service_tickets (network_id, id, type, subject, description, status, priority, creator_uuid,
       creator_name, reported_player_name, tags, created_server, created_at, updated_at)
     VALUES (?, ?, ?, 'bench subject', 'bench description', ?, 'normal', ?, ?, 'someone', '[]', 'bench', ?, ?)`,
  );
  const notice = db.prepare(
    `INSERT INTO service_notifications (network_id, id, player_uuid, created_at, acknowledged_at, message)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const types = ['player', 'chat', 'bug', 'support', 'appeal'];
  db.transaction(() => {
    for (let n = 0; n < TICKETS; n += 1) {
      const createdAt = nowMs - Math.floor(((TICKETS - n) / TICKETS) * 365 * DAY_MS);
      const status = n % OPEN_EVERY === 0 ? 'Open' : 'Closed';
      const player = n % PLAYERS;
      ticket.run(
        networkId,
        `t${n}`,
        types[n % types.length],
        status,
        uuidOf(player),
        `player${player}`,
        createdAt,
        createdAt,
      );
    }
    for (let n = 0; n < NOTICES; n += 1) {
      const createdAt = nowMs - Math.floor(((NOTICES - n) / NOTICES) * 365 * DAY_MS);
      const unreadText = n % UNREAD_TEXT_EVERY === 0;
      notice.run(
        networkId,
        `n${n}`,
        uuidOf(n % PLAYERS),
        createdAt,
        unreadText ? null : createdAt,
        unreadText ? `Staff replied to your ticket t${n}: bench` : null,
      );
    }
  })();
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function time(samples: number, call: (i: number) => Promise<Response>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    const response = await call(i);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`bench call failed with ${response.status}`);
    durations.push(performance.now() - started);
  }
  return durations;
}

/** The staff report routes over HTTP on 127.0.0.1 with 20,000 tickets and 100,000 notices stored. */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-staff-reports-'));
  const dbPath = join(dir, 'service.db');
  try {
    const setup = await startService({ port: 0, dbPath, seed: seed() });
    await setup.close();
    const nowMs = Date.now();
    fill(dbPath, nowMs);

    const service = await startService({
      port: 0,
      dbPath,
      rateLimitPerMinute: 1_000_000,
      writeRateLimitPerMinute: 1_000_000,
    });
    try {
      const base = `${service.url}/v1/minecraft`;
      const headers = { 'x-api-key': API_KEY, 'content-type': 'application/json' };
      const list = (query: string) => () => fetch(`${base}/tickets?${query}`, { headers });
      const sinceHour = new Date(nowMs - 3_600_000).toISOString();
      const sinceYear = new Date(nowMs - 365 * DAY_MS).toISOString();
      await time(100, list('status=open&pageSize=8'));
      const firstPage = summarize(await time(SAMPLES, list('status=open&type=player,chat&pageSize=8')));
      const deepPage = summarize(await time(SAMPLES, list('status=open&type=player,chat&pageSize=8&page=150')));
      const poll = summarize(await time(SAMPLES, list('status=open&type=player,chat&pageSize=20')));
      const notices = summarize(
        await time(SAMPLES, () => fetch(`${base}/notifications/pending?since=${sinceHour}`, { headers })),
      );
      const noticesFull = summarize(
        await time(SAMPLES, () => fetch(`${base}/notifications/pending?since=${sinceYear}`, { headers })),
      );
      const claim = summarize(
        await time(SAMPLES, (i) =>
          fetch(`${base}/tickets/t${i * OPEN_EVERY}/claim`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ staffName: 'bench', staffUuid: uuidOf(1) }),
          }),
        ),
      );
      const notes = `${TICKETS.toLocaleString('en')} tickets (${TICKETS / OPEN_EVERY} open), ${NOTICES.toLocaleString('en')} notices (${NOTICES / UNREAD_TEXT_EVERY} unread replies), HTTP on 127.0.0.1, ${SAMPLES} sequential calls`;
      return [
        { name: '/reports list: open reports, page 1 of 8', unit: 'ms', ...firstPage, target: 'p99 <= 10 ms', notes },
        { name: '/reports list: open reports, page 150 of 8', unit: 'ms', ...deepPage, notes },
        { name: 'report alert poll (20 newest open reports)', unit: 'ms', ...poll, target: 'p99 <= 10 ms', notes },
        { name: 'reply notice poll (last hour)', unit: 'ms', ...notices, target: 'p99 <= 10 ms', notes },
        { name: 'reply notice poll (a year: a full page of 100)', unit: 'ms', ...noticesFull, notes },
        { name: 'claim a report', unit: 'ms', ...claim, notes },
      ];
    } finally {
      await service.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
