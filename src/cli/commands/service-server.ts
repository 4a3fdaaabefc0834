import type { CliContext } from '../command.js';
import { parseFlags, UsageError } from '../command.js';
import { DATABASE_FLAGS, DATABASE_USAGE, databaseOf, refusalsAsUsage, withServiceStorage } from './service-database.js';

export const SERVER_USAGE = `usage: bailiff service server add --network NAME --name NAME (--db PATH | --database-url URL)
       bailiff service server list --network NAME (--db PATH | --database-url URL)
       bailiff service server remove --network NAME --name NAME (--db PATH | --database-url URL)

Adds, lists or removes a network's game servers, in the service's database; the service may be
running. \`add\` prints the new server's API key once: only its hash is stored, so it cannot be shown
again (\`bailiff service key rotate\` makes a new one). \`list\` never shows a key. \`remove\` refuses
the server's keys at once; its history (acknowledgements, uploads) stays, and adding the name
again brings it back with a new key.

  --network NAME       the network (see bailiff service network list)
  --name NAME          the server: 1 to 64 letters, digits, dots, dashes or underscores
${DATABASE_USAGE}`;

function parse(argv: string[]) {
  return parseFlags(
    argv,
    {
      ...DATABASE_FLAGS,
      network: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    SERVER_USAGE,
  );
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `bailiff service server add|list|remove`. */
export async function serverCommand(context: CliContext): Promise<number> {
  const [action, ...rest] = context.argv;
  const flags = parse(rest);
  if (flags.help || action === '--help' || action === '-h') {
    context.stdout.write(`${SERVER_USAGE}\n`);
    return 0;
  }
  if (action !== 'add' && action !== 'list' && action !== 'remove') {
    throw new UsageError(`server: give add, list or remove, received '${action ?? ''}'\n${SERVER_USAGE}`);
  }
  if (flags.network === undefined) throw new UsageError(`--network is required\n${SERVER_USAGE}`);
  const name = flags.name;
  if (action !== 'list' && name === undefined) throw new UsageError(`--name is required\n${SERVER_USAGE}`);
  const network = flags.network;
  const database = databaseOf(flags, context, SERVER_USAGE);
  const { ServerManagement, COMMAND_LINE_ACTOR, networkIdByName } = await import(
    '../../service/servers/manage-servers.js'
  );
  const { systemClock } = await import('../../ports/clock.js');
  const output = await withServiceStorage(database, (storage) =>
    refusalsAsUsage(async () => {
      const management = new ServerManagement({ storage, clock: systemClock });
      const networkId = await networkIdByName(storage.stores, network);
      if (action === 'add') {
        const added = await management.addServer(networkId, name!, COMMAND_LINE_ACTOR);
        return (
          `server '${added.name}' added to network '${network}'. Its API key, shown this once (only its hash is kept):\n` +
          `${added.apiKey}\n` +
          'Give it to the game server as api.key in config.yml, or BAILIFF_API_KEY / BAILIFF_API_KEY_FILE.\n'
        );
      }
      if (action === 'remove') {
        await management.removeServer(networkId, name!, COMMAND_LINE_ACTOR);
        return `server '${name}' removed from network '${network}': its keys are refused from now on\n`;
      }
      const servers = await management.listServers(networkId);
      if (servers.length === 0) return `network '${network}' has no servers yet\n`;
      return servers
        .map((server) => {
          const keySet =
            server.keySetAt === null ? 'key set before it was recorded' : `key set ${iso(server.keySetAt)}`;
          const old = server.retiredKeysValidUntil.map((until) => `; an old key accepted until ${iso(until)}`).join('');
          return `${server.name}\t${keySet}${old}\n`;
        })
        .join('');
    }),
  );
  context.stdout.write(output);
  return 0;
}
