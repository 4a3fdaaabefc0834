import type { CliContext } from '../command.js';
import { parseFlags, UsageError } from '../command.js';
import { DATABASE_FLAGS, DATABASE_USAGE, databaseOf, refusalsAsUsage, withServiceStorage } from './service-database.js';

export const NETWORK_USAGE = `usage: bailiff service network add --name NAME (--db PATH | --database-url URL)
       bailiff service network list (--db PATH | --database-url URL)

Adds or lists the networks (tenants) of the service, in its database; the service may be running.
Then add the network's game servers with \`bailiff service server add\`.

  --name NAME          the new network's name: 1 to 64 letters, digits, dots, dashes or underscores
${DATABASE_USAGE}`;

function parse(argv: string[]) {
  return parseFlags(
    argv,
    { ...DATABASE_FLAGS, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    NETWORK_USAGE,
  );
}

/** `bailiff service network add|list`. */
export async function networkCommand(context: CliContext): Promise<number> {
  const [action, ...rest] = context.argv;
  const flags = parse(rest);
  if (flags.help || action === '--help' || action === '-h') {
    context.stdout.write(`${NETWORK_USAGE}\n`);
    return 0;
  }
  if (action !== 'add' && action !== 'list') {
    throw new UsageError(`network: give add or list, received '${action ?? ''}'\n${NETWORK_USAGE}`);
  }
  const database = databaseOf(flags, context, NETWORK_USAGE);
  if (action === 'list') {
    const networks = await withServiceStorage(database, (storage) => storage.stores.networks.listNetworks());
    context.stdout.write(
      networks.length === 0 ? 'no networks yet\n' : networks.map((network) => `${network.name}\n`).join(''),
    );
    return 0;
  }
  if (flags.name === undefined) throw new UsageError(`--name is required\n${NETWORK_USAGE}`);
  const name = flags.name;
  const { ServerManagement, COMMAND_LINE_ACTOR } = await import('../../service/servers/manage-servers.js');
  const { systemClock } = await import('../../ports/clock.js');
  await withServiceStorage(database, (storage) =>
    refusalsAsUsage(() => new ServerManagement({ storage, clock: systemClock }).addNetwork(name, COMMAND_LINE_ACTOR)),
  );
  context.stdout.write(
    `network '${name}' added; add its game servers with: bailiff service server add --network ${name} --name NAME\n`,
  );
  return 0;
}
