import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import mysql from 'mysql2/promise';
import { createModerationClient } from '../src/api/client.js';
import { runMigration } from '../src/migration/index.js';
import { startService } from '../src/service/index.js';
import { LITEBANS_SCHEMA } from '../test/migration/helpers/plugin-schemas.js';
import { startMariaDbServer, stopMariaDbServer } from '../test/support/mariadb-server.js';
import type { BenchResult } from './result.js';

const PUNISHMENTS = 100_000;
const PLAYERS = 25_000;
const INSERT_ROWS = 2_000;
const API_KEY = 'bench-litebans-api-key-0001';
const ADMIN_TOKEN = 'bench-litebans-admin-token';
const NOW = Date.now();
const DAY = 86_400_000;

const uuidOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/** 100,000 rows as a network's LiteBans has them: mostly bans, then mutes, warnings, kicks; some IP bans, some lifted. */
async function fill(url: string): Promise<void> {
  const connection = await mysql.createConnection({ uri: url });
  try {
    await connection.query('CREATE DATABASE litebans');
    await connection.query('USE litebans');
    for (const statement of LITEBANS_SCHEMA) await connection.query(statement);
    for (let from = 0; from < PLAYERS; from += INSERT_ROWS) {
      const rows = [];
      for (let n = from; n < Math.min(PLAYERS, from + INSERT_ROWS); n++)
        rows.push([`player${n}`, uuidOf(n), `10.0.${(n >> 8) & 255}.${n & 255}`]);
      await connection.query('INSERT INTO litebans_history (name, uuid, ip) VALUES ?', [rows]);
    }
    const tables: [string, number][] = [
      ['litebans_bans', 60_000],
      ['litebans_mutes', 20_000],
      ['litebans_warnings', 15_000],
      ['litebans_kicks', 5_000],
    ];
    for (const [table, count] of tables) {
      const lifted = table !== 'litebans_kicks';
      for (let from = 0; from < count; from += INSERT_ROWS) {
        const rows = [];
        for (let n = from; n < Math.min(count, from + INSERT_ROWS); n++) {
          const time = NOW - (n % 365) * DAY;
          const row: unknown[] = [
            uuidOf(n % PLAYERS),
            `10.0.${(n >> 8) & 255}.${n & 255}`,
            'Breaking rule 3 (reason text of a typical length, a sentence or two)',
            uuidOf(PLAYERS + (n % 20)),
            `Moderator${n % 20}`,
            time,
            n % 3 === 0 ? -1 : time + 30 * DAY,
            table === 'litebans_bans' && n % 10 === 0 ? 1 : 0,
            n % 7 === 0 ? 0 : 1,
          ];
          if (lifted) row.push(n % 7 === 0 ? 'Admin' : null, n % 7 === 0 ? 'Appeal accepted' : null);
          rows.push(row);
        }
        const columns = `uuid, ip, reason, banned_by_uuid, banned_by_name, time, until, ipban, active${lifted ? ', removed_by_name, removed_by_reason' : ''}`;
        await connection.query(`INSERT INTO ${table} (${columns}) VALUES ?`, [rows]);
      }
    }
  } finally {
    await connection.end();
  }
}

/** Reading 100,000 LiteBans punishments from MariaDB, writing, uploading and importing them into the service. */
export async function run(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bailiff-bench-litebans-'));
  const mariadb = await startMariaDbServer();
  const service = await startService({
    port: 0,
    dbPath: join(dir, 'service.db'),
    adminToken: ADMIN_TOKEN,
    maxUploadMb: 200,
    seed: { networks: [{ name: 'bench', servers: [{ name: 'hub', apiKey: API_KEY }] }] },
  });
  try {
    await fill(mariadb.url);
    const client = createModerationClient({ baseUrl: service.url, apiKey: API_KEY });
    const started = performance.now();
    const summary = await runMigration({
      from: 'litebans',
      databaseUrl: `mysql://bench:bench@127.0.0.1:${mariadb.port}/litebans`,
      outFile: join(dir, 'litebans.json'),
      client,
    });
    const uploaded = performance.now();
    let message = '';
    for (let attempt = 0; attempt < 6_000; attempt++) {
      const response = await fetch(`${service.url}/admin/v1/networks/bench/migrations`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const latest = ((await response.json()) as { migrations: { status: string; message: string }[] }).migrations[0];
      if (latest?.status === 'failed') throw new Error(`import failed: ${latest.message}`);
      if (latest?.status === 'completed') {
        message = latest.message;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!message.includes(`${PUNISHMENTS} punishments`))
      throw new Error(`import incomplete: ${message || 'not finished'}`);
    const done = performance.now();
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    return [
      {
        name: 'import 100,000 LiteBans punishments (MariaDB -> service, imported)',
        unit: 's',
        value: seconds(done - started),
        target: '<= 60 s',
        notes: `read + file + upload ${seconds(uploaded - started)} s, service import ${seconds(done - uploaded)} s; ${summary.fileSize.toLocaleString('en-US')} bytes; in-process SQLite service`,
      },
    ];
  } finally {
    await service.close();
    await stopMariaDbServer(mariadb);
    await rm(dir, { recursive: true, force: true });
  }
}
