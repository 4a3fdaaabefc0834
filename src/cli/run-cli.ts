import { errorMessage } from '../errors/error-message.js';
import type { CliCommand, CliContext } from './command.js';
import { UsageError } from './command.js';

/** Each subcommand lives in its own module, loaded only when used. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ command: CliCommand }> }> = {
  start: {
    summary: 'run a game server with Bailiff (embedded service when none is configured)',
    load: () => import('./commands/start.js'),
  },
  service: { summary: 'run the reference moderation service', load: () => import('./commands/service.js') },
  outbox: { summary: 'inspect the outbox: status, dead, retry-dead', load: () => import('./commands/outbox.js') },
  migrate: { summary: 'export bans from another system and upload them', load: () => import('./commands/migrate.js') },
  demo: { summary: 'scripted scenario with bots against a fresh server', load: () => import('./commands/demo.js') },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, entry]) => `  ${name.padEnd(9)} ${entry.summary}`);
  return [
    'usage: bailiff <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    'Run `bailiff <command> --help` for its options.',
  ].join('\n');
}

export async function runCli(args: string[], context: Partial<CliContext> = {}): Promise<number> {
  const stdout = context.stdout ?? process.stdout;
  const stderr = context.stderr ?? process.stderr;
  const [name, ...rest] = args;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    stdout.write(`${usage()}\n`);
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS[name];
  if (!entry) {
    stderr.write(`bailiff: unknown command '${name}'\n${usage()}\n`);
    return 2;
  }
  const { command } = await entry.load();
  try {
    return await command({
      argv: rest,
      stdout,
      stderr,
      stdin: context.stdin ?? process.stdin,
      env: context.env ?? process.env,
      cwd: context.cwd ?? process.cwd(),
    });
  } catch (error) {
    if (error instanceof UsageError) {
      stderr.write(`bailiff ${name}: ${error.message}\n`);
      return 2;
    }
    stderr.write(`bailiff ${name}: ${errorMessage(error)}\n`);
    return 1;
  }
}
