import type { CliContext } from '../command.js';
import { parseFlags, UsageError } from '../command.js';
import { readNewPassword } from '../password-input.js';
import { DATABASE_FLAGS, DATABASE_USAGE, databaseOf } from './service-database.js';

export const CREATE_ADMIN_USAGE = `usage: bailiff service create-admin (--db PATH | --database-url URL) (--network NAME | --all-networks) --user NAME

Creates the first admin of the moderation panel (/panel/) in the service's database, SQLite or
PostgreSQL; the service may be running. The password is prompted for (twice, hidden) or, when
stdin is not a terminal, read from its first line; never give it on the command line.

${DATABASE_USAGE}
  --network NAME       the network the admin manages
  --all-networks       a superuser, who works in every network instead
  --user NAME          the username (letters, digits, . _ -)`;

function parse(argv: string[]) {
  return parseFlags(
    argv,
    {
      ...DATABASE_FLAGS,
      network: { type: 'string' },
      'all-networks': { type: 'boolean' },
      user: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    CREATE_ADMIN_USAGE,
  );
}

/** `bailiff service create-admin`. */
export async function createAdminCommand(context: CliContext): Promise<number> {
  const flags = parse(context.argv);
  if (flags.help) {
    context.stdout.write(`${CREATE_ADMIN_USAGE}\n`);
    return 0;
  }
  const database = databaseOf(flags, context, CREATE_ADMIN_USAGE);
  if (!flags.user) throw new UsageError(`--user is required\n${CREATE_ADMIN_USAGE}`);
  if ((flags.network === undefined) === (flags['all-networks'] !== true)) {
    throw new UsageError(`give --network NAME or --all-networks (one of them)\n${CREATE_ADMIN_USAGE}`);
  }
  const input = await readNewPassword(context.stdin ?? process.stdin, context.stderr);
  if ('mismatch' in input) throw new UsageError('the two passwords differ');
  const { createAdmin, CreateAdminError } = await import('../../service/panel/create-admin.js');
  try {
    await createAdmin({
      ...database,
      network: flags.network,
      username: flags.user,
      password: input.password,
    });
  } catch (error) {
    if (error instanceof CreateAdminError) throw new UsageError(error.message);
    throw error;
  }
  const where = flags.network === undefined ? 'every network' : `network '${flags.network}'`;
  context.stdout.write(`panel admin '${flags.user}' created for ${where}; log in at <service URL>/panel/\n`);
  return 0;
}
