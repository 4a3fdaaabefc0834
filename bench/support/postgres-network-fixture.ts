import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDb } from '../../src/db/open-db.js';
import { postgresChoices } from '../../src/service/db/dialect/postgres-choices.js';
import { serviceStepNames } from '../../src/service/db/migrate.js';
import { openPostgresStorage } from '../../src/service/store/open-storage.js';
import type { FixtureFacts, NetworkShape } from '../../test/service/helpers/network-fixture.js';
import {
  type PostgresServer,
  snapshotPostgresData,
  startPostgresServer,
  stopPostgresServer,
} from '../../test/support/postgres-server.js';
import { networkFixtureCopy } from './network-fixture-file.js';

/** Rows sent per INSERT: arrays of this many values per column, unnested by the server. */
const BATCH_ROWS = 5000;

interface TableCopy {
  table: string;
  /** Column name and its PostgreSQL type, in the order both databases know them by. */
  columns: ReadonlyArray<readonly [string, string]>;
  /** The SQLite order, so generated row ids follow the original insertion order. */
  orderBy: string;
}

/** The tables the login check reads; the rest of the fixture (tickets, acknowledgements, ...) is left out. */
const LOGIN_CHECK_TABLES: readonly TableCopy[] = [
  {
    table: 'service_networks',
    columns: [
      ['id', 'int'],
      ['name', 'text'],
    ],
    orderBy: 'id',
  },
  {
    table: 'service_servers',
    columns: [
      ['id', 'int'],
      ['network_id', 'int'],
      ['name', 'text'],
      ['key_hash', 'bytea'],
    ],
    orderBy: 'id',
  },
  {
    table: 'service_players',
    columns: [
      ['network_id', 'int'],
      ['uuid', 'text'],
      ['name', 'text'],
      ['last_ip', 'text'],
      ['last_server', 'text'],
      ['last_login_at', 'bigint'],
    ],
    orderBy: 'network_id, uuid',
  },
  {
    table: 'service_player_ips',
    columns: [
      ['network_id', 'int'],
      ['ip', 'text'],
      ['uuid', 'text'],
      ['first_seen_at', 'bigint'],
      ['last_seen_at', 'bigint'],
    ],
    orderBy: 'network_id, ip, uuid',
  },
  {
    table: 'service_punishments',
    columns: [
      ['network_id', 'int'],
      ['id', 'text'],
      ['target_uuid', 'text'],
      ['target_name', 'text'],
      ['issuer_name', 'text'],
      ['issuer_id', 'text'],
      ['type_ordinal', 'int'],
      ['reason', 'text'],
      ['duration', 'bigint'],
      ['severity', 'text'],
      ['status', 'text'],
      ['data', 'text'],
      ['ip_ban_key', 'text'],
      ['notes', 'text'],
      ['attached_ticket_ids', 'text'],
      ['created_at', 'bigint'],
      ['started_at', 'bigint'],
      ['updated_at', 'bigint'],
      ['expiry_announced_at', 'bigint'],
    ],
    orderBy: 'rowid',
  },
  {
    table: 'service_notifications',
    columns: [
      ['network_id', 'int'],
      ['id', 'text'],
      ['player_uuid', 'text'],
      ['created_at', 'bigint'],
      ['acknowledged_at', 'bigint'],
    ],
    orderBy: 'network_id, id',
  },
];

async function copyTable(sqlitePath: string, client: pg.PoolClient, copy: TableCopy): Promise<number> {
  const db = openDb(sqlitePath, { readonly: true });
  try {
    const names = copy.columns.map(([name]) => name);
    const select = db.prepare(`SELECT ${names.join(', ')} FROM ${copy.table} ORDER BY ${copy.orderBy}`).raw(true);
    const unnest = copy.columns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ');
    const insert = `INSERT INTO ${copy.table} (${names.join(', ')}) SELECT * FROM unnest(${unnest})`;
    let batch: unknown[][] = names.map(() => []);
    let pending = 0;
    let copied = 0;
    const flush = async () => {
      if (pending === 0) return;
      await client.query(insert, batch);
      copied += pending;
      batch = names.map(() => []);
      pending = 0;
    };
    for (const row of select.iterate() as IterableIterator<unknown[]>) {
      for (let column = 0; column < row.length; column += 1) batch[column]!.push(row[column]);
      pending += 1;
      if (pending === BATCH_ROWS) await flush();
    }
    await flush();
    return copied;
  } finally {
    db.close();
  }
}

/**
 * Copies the login check's tables of a SQLite network fixture into a migrated PostgreSQL database
 * (triggers off: the copy writes no change log), then analyzes it. Returns the rows and seconds.
 */
export async function copyNetworkFixture(
  sqlitePath: string,
  pool: pg.Pool,
): Promise<{ rows: Record<string, number>; seconds: number }> {
  const began = performance.now();
  const client = await pool.connect();
  const rows: Record<string, number> = {};
  try {
    await client.query('BEGIN');
    // Only a superuser may do this; the bench's own server makes us one.
    await client.query('SET LOCAL session_replication_role = replica');
    for (const copy of LOGIN_CHECK_TABLES) rows[copy.table] = await copyTable(sqlitePath, client, copy);
    for (const table of ['service_networks', 'service_servers']) {
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
    }
    await client.query('COMMIT');
    // Sets the visibility map and hint bits now, so the first reads (and autovacuum) do not write the pages.
    await client.query('VACUUM (ANALYZE)');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return { rows, seconds: (performance.now() - began) / 1000 };
}

/** Bump when what the copy writes changes; the schema's text is part of the cache key too. */
const PG_FIXTURE_VERSION = 2;
const CACHE_DIR = join(tmpdir(), 'bailiff-bench-cache');

export interface PostgresNetworkFixture {
  server: PostgresServer;
  /** URL of the database holding the fixture. */
  url: string;
  facts: FixtureFacts;
  /** Seconds spent copying the SQLite fixture in now; undefined when the cached data directory was used. */
  loadedSeconds: number | undefined;
  rows: Record<string, number> | undefined;
}

function cacheDirOf(shape: NetworkShape): string {
  const schema = createHash('sha256')
    .update(JSON.stringify(serviceStepNames(postgresChoices)))
    .digest('hex')
    .slice(0, 12);
  const name = `postgres-network-v${PG_FIXTURE_VERSION}-${schema}-${shape.players}p-${shape.stored}s-${shape.active}a`;
  return join(CACHE_DIR, name);
}

const FIXTURE_DATABASE = 'bailiff_bench';

async function loadInto(server: PostgresServer, sqlitePath: string) {
  const admin = new pg.Client({ connectionString: server.adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${FIXTURE_DATABASE}`);
  await admin.end();
  const storage = await openPostgresStorage(server.adminUrl.replace(/\/postgres$/, `/${FIXTURE_DATABASE}`));
  try {
    return await copyNetworkFixture(sqlitePath, storage.pool!);
  } finally {
    await storage.close();
  }
}

/**
 * A PostgreSQL holding the network fixture of `shape` in database `bailiff_bench`. The first run
 * copies the SQLite fixture in (about a minute at 1,000,000 punishments) and caches the server's
 * data directory under the system's temp directory; later runs start from a copy of it.
 */
export async function startPostgresNetworkFixture(
  shape: NetworkShape,
  workDir: string,
  nowMs: number,
): Promise<PostgresNetworkFixture> {
  const cached = cacheDirOf(shape);
  const cachedData = join(cached, 'data');
  const cachedFacts = join(cached, 'facts.json');
  if (existsSync(cachedData) && existsSync(cachedFacts)) {
    // Another PostgreSQL may have made the cache: then it does not start, or starts as another version.
    const server = await startPostgresServer({ dataFrom: cachedData }).catch(() => undefined);
    if (server && readFileSync(join(cached, 'version.txt'), 'utf8') === server.version) {
      const facts = JSON.parse(readFileSync(cachedFacts, 'utf8')) as FixtureFacts;
      const url = server.adminUrl.replace(/\/postgres$/, `/${FIXTURE_DATABASE}`);
      return { server, url, facts, loadedSeconds: undefined, rows: undefined };
    }
    if (server) await stopPostgresServer(server);
    rmSync(cached, { recursive: true, force: true });
  }
  const fixture = await networkFixtureCopy(shape, workDir, nowMs);
  const building = await startPostgresServer();
  let loaded: Awaited<ReturnType<typeof copyNetworkFixture>>;
  try {
    loaded = await loadInto(building, fixture.path);
    const partial = `${cached}.${process.pid}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    await snapshotPostgresData(building, join(partial, 'data'));
    writeFileSync(join(partial, 'facts.json'), JSON.stringify(fixture.facts));
    writeFileSync(join(partial, 'version.txt'), building.version);
    rmSync(cached, { recursive: true, force: true });
    renameSync(partial, cached);
  } finally {
    await stopPostgresServer(building);
    rmSync(fixture.path, { force: true });
  }
  const server = await startPostgresServer({ dataFrom: cachedData });
  return {
    server,
    url: server.adminUrl.replace(/\/postgres$/, `/${FIXTURE_DATABASE}`),
    facts: fixture.facts,
    loadedSeconds: loaded.seconds,
    rows: loaded.rows,
  };
}
