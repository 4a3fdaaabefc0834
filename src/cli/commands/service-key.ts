import type { CliContext } from '../command.js';
import { parseFlags, UsageError } from '../command.js';
import { DATABASE_FLAGS, DATABASE_USAGE, databaseOf, refusalsAsUsage, withServiceStorage } from './service-database.js';

export const KEY_USAGE = `usage: bailiff service key rotate --network NAME --server NAME --grace LENGTH (--db PATH | --database-url URL)

Gives a game server a new API key, printed once (only its hash is kept). Its old key is still
accepted for the grace period, so the server keeps working until it has the new key; then the old
key is refused, and a stream opened with it is closed. \`--grace 0\` refuses the old key at once
(a key that leaked). The service may be running.

  --network NAME       the network
  --server NAME        the server (see bailiff service server list)
  --grace LENGTH       how long the old key stays valid: 0, or a length like 30m, 12h, 7d (at most 30d)
${DATABASE_USAGE}`;

function parse(argv: string[]) {
  return parseFlags(
    argv,
    {
      ...DATABASE_FLAGS,
      network: { type: 'string' },
      server: { type: 'string' },
      grace: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    KEY_USAGE,
  );
}

/** `bailiff service key rotate`. */
export async function keyCommand(context: CliContext): Promise<number> {
  const [action, ...rest] = context.argv;
  const flags = parse(rest);
  if (flags.help || action === '--help' || action === '-h') {
    context.stdout.write(`${KEY_USAGE}\n`);
    return 0;
  }
  if (action !== 'rotate') throw new UsageError(`key: give rotate, received '${action ?? ''}'\n${KEY_USAGE}`);
  for (const flag of ['network', 'server', 'grace'] as const) {
    if (flags[flag] === undefined) throw new UsageError(`--${flag} is required\n${KEY_USAGE}`);
  }
  const { network, server, grace } = flags as { network: string; server: string; grace: string };
  const database = databaseOf(flags, context, KEY_USAGE);
  const { ServerManagement, COMMAND_LINE_ACTOR, networkIdByName } = await import(
    '../../service/servers/manage-servers.js'
  );
  const { parseGrace } = await import('../../service/servers/server-key.js');
  const { systemClock } = await import('../../ports/clock.js');
  const graceMs = await refusalsAsUsage(async () => parseGrace(grace));
  const rotated = await withServiceStorage(database, (storage) =>
    refusalsAsUsage(async () => {
      const networkId = await networkIdByName(storage.stores, network);
      return new ServerManagement({ storage, clock: systemClock }).rotateKey(
        networkId,
        server,
        graceMs,
        COMMAND_LINE_ACTOR,
      );
    }),
  );
  const old =
    rotated.oldKeyValidUntilMs === null
      ? 'The old key is refused from now on.'
      : `The old key is accepted until ${new Date(rotated.oldKeyValidUntilMs).toISOString()}, then refused.`;
  context.stdout.write(
    `new API key of server '${server}' (network '${network}'), shown this once (only its hash is kept):\n` +
      `${rotated.apiKey}\n${old}\n`,
  );
  return 0;
}
