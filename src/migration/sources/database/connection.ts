import { MigrationError } from '../../errors.js';

/** A plugin's database, read only: MySQL/MariaDB through mysql2, PostgreSQL through pg. */
export interface SourceDatabase {
  readonly dialect: 'mysql' | 'postgres';
  /** Runs `sql` with `?` placeholders; rows as plain objects. */
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** An identifier quoted for this database (`end`, `time` and `until` are keywords in some). */
  quote(identifier: string): string;
  close(): Promise<void>;
}

/** The URL with its password hidden, for messages. */
export function describeUrl(url: URL): string {
  return `${url.protocol}//${url.username ? `${url.username}@` : ''}${url.host}${url.pathname}`;
}

async function openMysql(url: string): Promise<SourceDatabase> {
  const mysql = await import('mysql2/promise');
  // Dates as numbers-to-be (Date objects) and BIGINT as exact strings are converted by the readers.
  const connection = await mysql.createConnection({ uri: url, supportBigNumbers: true, bigNumberStrings: true });
  return {
    dialect: 'mysql',
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const [rows] = await connection.query(sql, params as unknown[]);
      return rows as Row[];
    },
    quote: (identifier) => `\`${identifier.replaceAll('`', '``')}\``,
    close: () => connection.end(),
  };
}

async function openPostgres(url: string): Promise<SourceDatabase> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  return {
    dialect: 'postgres',
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      let index = 0;
      const text = sql.replace(/\?/g, () => `$${++index}`);
      const result = await client.query(text, params as unknown[]);
      return result.rows as Row[];
    },
    quote: (identifier) => `"${identifier.replaceAll('"', '""')}"`,
    close: () => client.end(),
  };
}

/** Connects to `mysql://`, `mariadb://` or `postgres(ql)://`; errors name the URL without its password. */
export async function openSourceDatabase(databaseUrl: string): Promise<SourceDatabase> {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new MigrationError(
      'invalid_option',
      '--database-url: expected mysql://... or postgres://..., received no URL',
    );
  }
  const scheme = url.protocol.replace(/:$/, '');
  const open =
    scheme === 'mysql' || scheme === 'mariadb'
      ? () => openMysql(databaseUrl.replace(/^mariadb:/, 'mysql:'))
      : scheme === 'postgres' || scheme === 'postgresql'
        ? () => openPostgres(databaseUrl)
        : undefined;
  if (!open) {
    throw new MigrationError(
      'invalid_option',
      `--database-url: expected mysql://, mariadb:// or postgres://, received ${scheme}://`,
    );
  }
  try {
    return await open();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError('source', `cannot connect to ${describeUrl(url)}: ${reason}`, { cause: error });
  }
}
