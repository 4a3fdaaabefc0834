import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../../cli/command.js';
import { readSecret } from '../../cli/secret-input.js';
import { errorMessage } from '../../errors/error-message.js';
import { isDatabaseSource, MIGRATION_SOURCES, type MigrationSourceKind } from '../types.js';

export const MIGRATE_USAGE = [
  'usage: bailiff migrate --from vanilla|essentials --dir PATH [--dry-run] [--out FILE]',
  '                       [--api-url URL] [--api-key-file FILE] [--db PATH]',
  '       bailiff migrate --from litebans|libertybans|advancedban|banmanager --database-url URL',
  '                       [--table-prefix PREFIX] [--dry-run] [--out FILE] [--api-url URL] ...',
  '       bailiff migrate --from json --file FILE [--dry-run] [--api-url URL] ...',
  '       bailiff migrate --to json --service-db PATH|postgres://... --network NAME --out FILE',
  '',
  '  --from      vanilla (banned-players.json, banned-ips.json) or essentials (userdata/*.yml),',
  '              or a plugin whose tables --database-url holds',
  '  --dir       the server folder (vanilla) or plugins/Essentials or its userdata folder',
  '  --database-url  mysql://USER:PASSWORD@HOST:PORT/DATABASE or postgres://... of the plugin',
  "  --table-prefix  the plugin's table prefix (default litebans_, libertybans_, none, bm_)",
  '  --file      the migration file to import (--from json)',
  "  --to json   export a network's punishments to --out, in the format --from json reads",
  "  --service-db    the service's SQLite file or PostgreSQL URL (--to json)",
  '  --network   the network to export (--to json)',
  '  --dry-run   write the migration file and stop (no network)',
  '  --out       where to write the migration file (default: a file in the temp folder)',
  '  --api-url   service URL (default: BAILIFF_API_URL, else server/plugin-data/Bailiff/config.yml)',
  '  --api-key-file  file holding the API key (default: BAILIFF_API_KEY, else the file',
  '              BAILIFF_API_KEY_FILE names, else the same config.yml)',
  '  --api-key   the API key itself (other users see it in `ps`: prefer the file)',
  '  --db        SQLite file of the outbox that carries progress (default: server/plugin-data/Bailiff/bailiff.db)',
].join('\n');

export const DEFAULT_PLUGIN_FOLDER = join('server', 'plugin-data', 'Bailiff');

/** `bailiff migrate --to json`: what to export and where. */
export interface ExportArgs {
  serviceDatabase: string;
  network: string;
  outFile: string;
}

export interface MigrateArgs {
  help: boolean;
  /** Set for `--to json`: the other flags are then unused. */
  exportTo: ExportArgs | undefined;
  from: MigrationSourceKind;
  dir: string;
  databaseUrl: string | undefined;
  tablePrefix: string | undefined;
  dryRun: boolean;
  outFile: string | undefined;
  apiUrl: string | undefined;
  apiKey: string | undefined;
  dbPath: string;
}

function describe(value: string | undefined): string {
  return value === undefined ? 'nothing' : `"${value}"`;
}

/** Reads the flags of `bailiff migrate`; throws {@link UsageError} naming the flag that is wrong. */
export function parseMigrateArgs(argv: string[], cwd: string): MigrateArgs {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new UsageError(`${errorMessage(error)}\n${MIGRATE_USAGE}`);
  }
  const help = values.help ?? false;
  const exportTo = help ? undefined : exportArgs(values, cwd);
  const from = exportTo ? 'json' : values.from;
  if (!help && !MIGRATION_SOURCES.includes(from as MigrationSourceKind)) {
    throw new UsageError(
      `--from: expected ${MIGRATION_SOURCES.join(', ')}, received ${describe(from)}\n${MIGRATE_USAGE}`,
    );
  }
  const fromDatabase = !help && isDatabaseSource(from as MigrationSourceKind);
  if (fromDatabase && (values['database-url'] === undefined || values['database-url'].trim() === '')) {
    throw new UsageError(`--database-url: expected the ${from} database's URL, received nothing\n${MIGRATE_USAGE}`);
  }
  if (!help && !exportTo && from === 'json' && (values.file === undefined || values.file.trim() === '')) {
    throw new UsageError(`--file: expected the migration file to import, received nothing\n${MIGRATE_USAGE}`);
  }
  if (
    !help &&
    !exportTo &&
    !fromDatabase &&
    from !== 'json' &&
    (values.dir === undefined || values.dir.trim() === '')
  ) {
    throw new UsageError(`--dir: expected the folder to read from, received nothing\n${MIGRATE_USAGE}`);
  }
  return {
    help,
    exportTo,
    from: from as MigrationSourceKind,
    // For --from json the source is the file (the sources take one path).
    dir: resolve(cwd, (from === 'json' ? values.file : values.dir) ?? '.'),
    databaseUrl: values['database-url'],
    tablePrefix: values['table-prefix'],
    dryRun: values['dry-run'] ?? false,
    outFile: values.out === undefined ? undefined : resolve(cwd, values.out),
    apiUrl: values['api-url'],
    apiKey: readSecret({
      flagName: '--api-key',
      flagValue: values['api-key'],
      fileFlagName: '--api-key-file',
      fileFlagValue: values['api-key-file'],
      // The environment (BAILIFF_API_KEY, BAILIFF_API_KEY_FILE) is read by the service resolver, after the flags.
      envName: 'BAILIFF_API_KEY',
      env: {},
      cwd,
    }),
    dbPath: resolve(cwd, values.db ?? join(DEFAULT_PLUGIN_FOLDER, 'bailiff.db')),
  };
}

function exportArgs(values: ReturnType<typeof parse>['values'], cwd: string): ExportArgs | undefined {
  if (values.to === undefined) return undefined;
  if (values.to !== 'json')
    throw new UsageError(`--to: expected json, received ${describe(values.to)}\n${MIGRATE_USAGE}`);
  if (values.from !== undefined) throw new UsageError(`--to json exports; it takes no --from\n${MIGRATE_USAGE}`);
  const required = (flag: 'service-db' | 'network' | 'out', what: string) => {
    const value = values[flag];
    if (value === undefined || value.trim() === '') {
      throw new UsageError(`--${flag}: expected ${what}, received nothing\n${MIGRATE_USAGE}`);
    }
    return value;
  };
  const database = required('service-db', "the service's SQLite file or postgres:// URL");
  return {
    serviceDatabase: /^postgres(ql)?:\/\//.test(database) ? database : resolve(cwd, database),
    network: required('network', 'the network to export'),
    outFile: resolve(cwd, required('out', 'the file to write')),
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      from: { type: 'string' },
      dir: { type: 'string' },
      'database-url': { type: 'string' },
      'table-prefix': { type: 'string' },
      file: { type: 'string' },
      to: { type: 'string' },
      'service-db': { type: 'string' },
      network: { type: 'string' },
      'dry-run': { type: 'boolean' },
      out: { type: 'string' },
      'api-url': { type: 'string' },
      'api-key': { type: 'string' },
      'api-key-file': { type: 'string' },
      db: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
