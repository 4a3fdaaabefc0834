import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDb } from '../src/db/open-db.js';
import { createAdmin } from '../src/service/panel/create-admin.js';
import { openSqliteStorage } from '../src/service/store/open-storage.js';
import { PanelClient } from '../test/service/helpers/panel-client.js';
import { type BenchResult, summarize } from './result.js';
import { startServiceProcess, stopServiceProcess } from './support/service-process.js';

const NETWORK = 'bench';
const PASSWORD = 'bench chat log password';
/** Lines stored; BAILIFF_BENCH_CHAT_LINES sets a smaller size on a busy machine. */
const LINES = Number(process.env.BAILIFF_BENCH_CHAT_LINES ?? 10_000_000);
/** A player's lines on average (a network of LINES / 500 players chatting for a month). */
const LINES_PER_PLAYER = 500;
/** The busiest player holds this share of every line (a spammer's month). */
const BUSIEST_SHARE = 0.01;
const DAYS = 29;
const DAY_MS = 86_400_000;
/** Rows per insert transaction: a bounded loop, committed in steps. */
const ROWS_PER_TRANSACTION = 100_000;
const WARM_UP = 30;
const SAMPLES = 500;

const uuidOf = (player: number) => `00000000-0000-4000-8000-${String(player).padStart(12, '0')}`;

/**
 * Fills the chat log with LINES lines straight through SQLite (prepared insert, 100,000 rows a
 * transaction), in time order over the last DAYS days as a network receives them, so a player's
 * lines lie scattered through the table: every hundredth line is player 0's (BUSIEST_SHARE), the
 * others go round the other players (LINES_PER_PLAYER each); one line of a player's hundred holds
 * the word the search rows look for, one of ten is a command.
 */
function fillChatLines(path: string, networkId: number, nowMs: number): number {
  const db = openDb(path);
  try {
    // The fill alone: the player index takes every insert at another player's place.
    db.pragma('cache_size = -1000000');
    const insert = db.prepare(
      `INSERT INTO service_chat_lines (network_id, server_name, player_uuid, player_name, kind, text, at)
       VALUES (?, 'game-1', ?, ?, ?, ?, ?)`,
    );
    const busiestEvery = Math.round(1 / BUSIEST_SHARE);
    const busiest = Math.ceil(LINES / busiestEvery);
    const others = Math.ceil((LINES - busiest) / LINES_PER_PLAYER);
    const startMs = nowMs - DAYS * DAY_MS;
    let written = 0;
    const writeRange = db.transaction((from: number, to: number) => {
      for (let n = from; n < to; n += 1) {
        const isBusiest = n % busiestEvery === 0;
        // The lines before n that are not player 0's (n = 0, 100, 200... are).
        const ofOthers = n - Math.floor(n / busiestEvery) - 1;
        const player = isBusiest ? 0 : 1 + (ofOthers % others);
        const inPlayer = isBusiest ? n / busiestEvery : Math.floor(ofOthers / others);
        const at = startMs + Math.floor((n * DAYS * DAY_MS) / LINES);
        const isCommand = inPlayer % 10 === 0;
        const text = isCommand
          ? `/msg friend${n % 97} hi`
          : inPlayer % 100 === 1
            ? `selling diamond ${n}`
            : `chat line ${n}`;
        insert.run(networkId, uuidOf(player), `p${player}`, isCommand ? 'command' : 'chat', text, at);
      }
    });
    while (written < LINES) {
      const to = Math.min(LINES, written + ROWS_PER_TRANSACTION);
      writeRange(written, to);
      written = to;
    }
    db.prepare(
      `INSERT INTO service_chat_log_networks (network_id, retention_days, max_lines, stored_lines) VALUES (?, 3650, ?, ?)`,
    ).run(networkId, LINES * 2, LINES);
    db.exec('ANALYZE');
    return 1 + others;
  } finally {
    db.close();
  }
}

async function timePages(client: PanelClient, paths: (n: number) => string): Promise<{ p50: number; p99: number }> {
  const durations: number[] = [];
  for (let n = 0; n < WARM_UP + SAMPLES; n += 1) {
    const began = performance.now();
    const page = await client.get(paths(n));
    const took = performance.now() - began;
    if (page.status !== 200) throw new Error(`${paths(n)} answered ${page.status}`);
    if (n >= WARM_UP) durations.push(took);
  }
  return summarize(durations);
}

/**
 * The player page's chat log view with LINES stored lines (10,000,000 by default), answered by a
 * service in its own process, sequentially over HTTP: the newest page of a typical player, a
 * search and a kind within a week, an older page, and the busiest player's search over the month
 * (for a word it said, and for one it never said: a page that examines its whole bound of lines).
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-chat-log-'));
  try {
    const path = join(dir, 'service.db');
    const nowMs = Date.now();
    const storage = await openSqliteStorage(path);
    let networkId: number;
    try {
      networkId = await storage.stores.networks.ensureNetwork(NETWORK);
    } finally {
      await storage.close();
    }
    await createAdmin({ dbPath: path, network: NETWORK, username: 'bench', password: PASSWORD });
    const filling = performance.now();
    const players = fillChatLines(path, networkId, nowMs);
    const fillSeconds = (performance.now() - filling) / 1000;
    const sampled = Math.min(players - 1, 2000);
    const storage2 = await openSqliteStorage(path);
    try {
      for (let player = 0; player <= sampled; player += 1) {
        await storage2.stores.players.recordLogin(networkId, {
          uuid: uuidOf(player),
          name: `p${player}`,
          ip: '203.0.113.7',
          server: 'game-1',
          at: nowMs,
        });
      }
    } finally {
      await storage2.close();
    }
    const { child, url } = await startServiceProcess(path);
    try {
      const client = new PanelClient(url);
      const login = await client.login('bench', PASSWORD);
      if (login.status !== 303) throw new Error(`login answered ${login.status}`);
      const typical = (n: number) => uuidOf(1 + (n % sampled));
      const week = (n: number) => {
        const to = new Date(nowMs - (n % 20) * DAY_MS).toISOString().slice(0, 16);
        const from = new Date(nowMs - (n % 20) * DAY_MS - 7 * DAY_MS).toISOString().slice(0, 16);
        return `log-from=${from}&log-to=${to}`;
      };
      const newest = await timePages(client, (n) => `/panel/players/${typical(n)}`);
      const searched = await timePages(client, (n) => `/panel/players/${typical(n)}?log-q=diamond&${week(n)}`);
      const commands = await timePages(client, (n) => `/panel/players/${typical(n)}?log-kind=command&${week(n)}`);
      const older = await timePages(client, (n) => `/panel/players/${typical(n)}?log-before=${nowMs - 10 * DAY_MS}-0`);
      const busiest = await timePages(
        client,
        (n) => `/panel/players/${uuidOf(0)}?log-q=diamond${n % 2 ? '&log-kind=chat' : ''}`,
      );
      // A word the busiest player never said: every page examines its full bound of lines and stops there.
      const unmatched = await timePages(
        client,
        (n) => `/panel/players/${uuidOf(0)}?log-q=emerald${n % 2 ? '&log-kind=chat' : ''}`,
      );
      const size = `${LINES.toLocaleString('en')} lines, ${players.toLocaleString('en')} players`;
      const notes = `${size}; loadavg ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores; filled in ${fillSeconds.toFixed(0)} s`;
      const target = LINES >= 10_000_000 ? 'p99 <= 50 ms' : 'p99 <= 50 ms at 10,000,000 lines';
      return [
        { name: 'chat log, newest page', unit: 'ms', ...newest, target, notes },
        { name: 'chat log, search within a week', unit: 'ms', ...searched, target, notes },
        { name: 'chat log, commands within a week', unit: 'ms', ...commands, target, notes },
        { name: 'chat log, an older page', unit: 'ms', ...older, target, notes },
        { name: 'chat log, busiest player searched over 29 days', unit: 'ms', ...busiest, target, notes },
        {
          name: 'chat log, busiest player searched for a word it never said',
          unit: 'ms',
          ...unmatched,
          target,
          notes,
        },
      ];
    } finally {
      await stopServiceProcess(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
