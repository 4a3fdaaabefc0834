import type { CommandHandler, CommandInvocation } from '../../src/runtime/plugin-api.js';
import { CommandUsageError } from '../../src/runtime/plugin-api.js';
import { MIGRATION_SOURCES, type MigrationSource, migrationSubcommand } from './bailiff-migrate.js';
import { reload, showStatus, syncNow } from './bailiff-status.js';
import { startsWith } from './completion.js';
import type { CommandDeps } from './deps.js';

const SUBCOMMANDS = ['status', 'sync', 'reload', 'migrate'] as const;

/** `/bailiff <status|sync|reload|migrate <vanilla|essentials>>` (permission `bailiff.admin`). */
export function bailiffCommand(deps: CommandDeps): CommandHandler {
  const migrate = migrationSubcommand(deps);
  return {
    execute: (invocation) => dispatch(deps, migrate, invocation),
    tabComplete: ({ args }) => {
      if (args.length === 1) return startsWith(SUBCOMMANDS, args[0] ?? '');
      if (args.length === 2 && args[0]?.toLowerCase() === 'migrate')
        return startsWith(MIGRATION_SOURCES, args[1] ?? '');
      return [];
    },
  };
}

async function dispatch(
  deps: CommandDeps,
  migrate: ReturnType<typeof migrationSubcommand>,
  { sender, args }: CommandInvocation,
): Promise<void> {
  const [subcommand, ...rest] = args;
  switch (subcommand?.toLowerCase()) {
    case 'status':
      return showStatus(deps, sender);
    case 'sync':
      return syncNow(deps, sender);
    case 'reload':
      return reload(deps, sender);
    case 'migrate': {
      const source = rest[0]?.toLowerCase();
      if (!MIGRATION_SOURCES.includes(source as MigrationSource) || rest.length !== 1) {
        throw new CommandUsageError(`migrate needs one of ${MIGRATION_SOURCES.join(', ')}`);
      }
      return migrate(sender, source as MigrationSource);
    }
    default:
      throw new CommandUsageError(subcommand === undefined ? 'missing subcommand' : `unknown subcommand ${subcommand}`);
  }
}
