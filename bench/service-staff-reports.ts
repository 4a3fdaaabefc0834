import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { openDb } from '../src/db/open-db.js';
import { type ServiceSeed, startService } from '../src/service/index.js';
import { openSqliteStorage } from '../src/service/store/open-storage.js';
import { TICKET_PAGE_START, type TicketFilter } from '../src/service/store/ports/ticket-list.js';
import { type BenchResult, summarize } from './result.js';
import { migrateSqliteFile } from './support/migrated-file.js';

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

/** The panel's ticket list is timed on a network this size. */
const LISTED_TICKETS = 200_000;
const LIST_PAGE = 51;
/** About one ticket in twenty is open; a closed one was handled by one of STAFF, an open one in ten has a holder. */
const LISTED_OPEN_EVERY = 20;
const STAFF = 20;

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

/** A fixed sequence in [0, 1) (mulberry32), so types, statuses and assignees do not line up with each other. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Of a hundred tickets: 40 chat, 40 player, 10 bug, 8 support and 2 appeals. */
function listedTypeOf(draw: number): string {
  if (draw < 0.4) return 'chat';
  if (draw < 0.8) return 'player';
  if (draw < 0.9) return 'bug';
  return draw < 0.98 ? 'support' : 'appeal';
}

async function fillListedTickets(dbPath: string, nowMs: number): Promise<void> {
  await migrateSqliteFile(dbPath);
  const db = openDb(dbPath);
  try {
    db.prepare("INSERT INTO service_networks (id, name) VALUES (1, 'bench')").run();
    const ticket = db.prepare(
      `INSERT INTO service_tickets (network_id, id, type, subject, description, status, priority, creator_uuid,
         creator_name, tags, assignee_name, created_at, updated_at)
       VALUES (1, ?, ?, 'bench subject', 'bench description', ?, 'normal', ?, ?, '[]', ?, ?, ?)`,
    );
    const next = sequence(22);
    db.transaction(() => {
      for (let n = 0; n < LISTED_TICKETS; n += 1) {
        // Several tickets a second share a created_at, as busy networks' do.
        const createdAt = nowMs - Math.floor((LISTED_TICKETS - n) / 4) * 1000;
        const type = listedTypeOf(next());
        const isOpen = next() < 1 / LISTED_OPEN_EVERY;
        const staff = Math.floor(next() * STAFF);
        const assignee = !isOpen || next() < 0.1 ? `staff${staff}` : null;
        const player = n % PLAYERS;
        const status = isOpen ? 'Open' : 'Closed';
        ticket.run(`t${n}`, type, status, uuidOf(player), `player${player}`, assignee, createdAt, createdAt);
      }
    })();
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/** Filters the panel's ticket list offers, each read as the first page and the page after it. */
const LIST_FILTERS: ReadonlyArray<readonly [string, TicketFilter]> = [
  ['appeals (2 in 100)', { type: 'appeal' }],
  ['assigned to one of 20 staff', { assignee: 'staff3' }],
  ['open, assigned to one of 20 staff', { status: 'Open', assignee: 'staff3' }],
  ['appeals assigned to one of 20 staff', { type: 'appeal', assignee: 'staff3' }],
  ['open bug reports assigned to nobody', { status: 'Open', type: 'bug', assignee: '' }],
];

/** The panel ticket list's read (two pages of 50, the page size the panel asks for) at 200,000 tickets. */
async function timeTicketList(dir: string): Promise<BenchResult[]> {
  const dbPath = join(dir, 'ticket-list.db');
  await fillListedTickets(dbPath, Date.now());
  const storage = await openSqliteStorage(dbPath);
  try {
    const list = storage.stores.ticketList;
    const results: BenchResult[] = [];
    const notes = `${LISTED_TICKETS.toLocaleString('en')} tickets (1 in ${LISTED_OPEN_EVERY} open), SQLite store read, two pages of ${LIST_PAGE - 1}, ${SAMPLES} samples`;
    for (const [label, filter] of LIST_FILTERS) {
      const durations: number[] = [];
      for (let i = 0; i < SAMPLES + 20; i += 1) {
        const started = performance.now();
        const first = await list.page(1, filter, TICKET_PAGE_START, LIST_PAGE);
        const last = first.at(-2);
        if (last) await list.page(1, filter, { createdAt: last.createdAt, position: last.position }, LIST_PAGE);
        if (i >= 20) durations.push(performance.now() - started);
      }
      results.push({ name: `panel ticket list: ${label}`, unit: 'ms', ...summarize(durations), notes });
    }
    return results;
  } finally {
    await storage.close();
  }
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
        {
          name: '/reports list: open reports, first page (8 a page)',
          unit: 'ms',
          ...firstPage,
          target: 'p99 <= 10 ms',
          notes,
        },
        { name: '/reports list: open reports, page 150 (8 a page)', unit: 'ms', ...deepPage, notes },
        { name: 'report alert poll (20 newest open reports)', unit: 'ms', ...poll, target: 'p99 <= 10 ms', notes },
        { name: 'reply notice poll (last hour)', unit: 'ms', ...notices, target: 'p99 <= 10 ms', notes },
        { name: 'reply notice poll (a year: a full page of 100)', unit: 'ms', ...noticesFull, notes },
        { name: 'claim a report', unit: 'ms', ...claim, notes },
        ...(await timeTicketList(dir)),
      ];
    } finally {
      await service.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
