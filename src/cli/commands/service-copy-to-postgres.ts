import { resolve } from 'node:path';
import type { CliContext } from '../command.js';
import { parseFlags, UsageError } from '../command.js';

/** The PostgreSQL URL, for deployments that keep it (and its password) off the command line. */
export const ENV_DATABASE_URL = 'BAILIFF_DATABASE_URL';

export const COPY_TO_POSTGRES_USAGE = `usage: bailiff service copy-to-postgres --from PATH [--database-url URL] [--force]

Copies everything an embedded service kept in its SQLite file (bailiff service --db) into a
PostgreSQL database, in one transaction, and checks every table's row count before committing.
The SQLite file is only read. Stop the service first: what it writes during the copy is not copied.

  --from PATH           the service's SQLite file
  --database-url URL    postgres://USER:PASSWORD@HOST:PORT/DATABASE (default: ${ENV_DATABASE_URL})
  --force               empty the PostgreSQL tables first instead of refusing a database with rows`;

function parse(argv: string[]) {
  return parseFlags(
    argv,
    {
      from: { type: 'string' },
      'database-url': { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    COPY_TO_POSTGRES_USAGE,
  );
}

/** `bailiff service copy-to-postgres`. */
export async function copyToPostgresCommand(context: CliContext): Promise<number> {
  const flags = parse(context.argv);
  if (flags.help) {
    context.stdout.write(`${COPY_TO_POSTGRES_USAGE}\n`);
    return 0;
  }
  if (!flags.from) throw new UsageError(`--from is required\n${COPY_TO_POSTGRES_USAGE}`);
  const databaseUrl = flags['database-url'] ?? context.env[ENV_DATABASE_URL];
  if (!databaseUrl) {
    throw new UsageError(`give --database-url or set ${ENV_DATABASE_URL}\n${COPY_TO_POSTGRES_USAGE}`);
  }
  const { copyToPostgres, CopyRefusedError } = await import('../../service/copy/copy-to-postgres.js');
  const { describeDatabaseUrl } = await import('../../service/db/dialect/postgres-driver.js');
  const shown = new Map<string, number>();
  try {
    const report = await copyToPostgres({
      sqlitePath: resolve(context.cwd, flags.from),
      databaseUrl,
      force: flags.force === true,
      onProgress: ({ table, copied, total }) => {
        // A line per tenth of a table, so a large table shows it is moving without flooding the terminal.
        const tenth = total === 0 ? 10 : Math.floor((copied * 10) / total);
        if ((shown.get(table) ?? -1) >= tenth) return;
        shown.set(table, tenth);
        context.stdout.write(`${table}: ${copied}/${total} rows\n`);
      },
    });
    for (const table of report.skipped) {
      context.stderr.write(`bailiff service copy-to-postgres: ${table} has no PostgreSQL table; not copied\n`);
    }
    const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
    context.stdout.write(
      `copied ${rows} rows in ${report.tables.length} tables to ${describeDatabaseUrl(databaseUrl)}; every count checked\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CopyRefusedError) throw new UsageError(error.message);
    throw error;
  }
}
