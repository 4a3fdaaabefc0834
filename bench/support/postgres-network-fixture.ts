import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { openDb } from '../../src/db/open-db.js';

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
    await client.query('ANALYZE');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return { rows, seconds: (performance.now() - began) / 1000 };
}
