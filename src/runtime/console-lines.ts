import { createInterface } from 'node:readline';
import type { Logger } from '../ports/logger.js';
import type { CommandRegistry } from './command-registry.js';
import { errorText } from './event-bus.js';
import type { CommandSender } from './plugin-api.js';

/** What a host does for the console besides plugin commands. */
export interface HostConsole {
  /** One line saying who is on the server, for `list`. */
  describePlayers(): string;
  /** Runs one of the host's own commands (`line` without `/`). */
  run(line: string): void | Promise<void>;
}

export interface ConsoleLineDeps {
  commands: Pick<CommandRegistry, 'dispatch'>;
  console: CommandSender;
  logger: Logger;
}

export interface ConsoleReader {
  close(): void;
}

/**
 * The one console path of every host: `list`, `stop`, a plugin's command, else the host's own.
 * A leading `/` is accepted. Errors are logged, never thrown.
 */
export function handleConsoleLine(deps: ConsoleLineDeps, raw: string, host: HostConsole, stop: () => void): void {
  const line = raw.trim().replace(/^\//, '');
  if (!line) return;
  if (line === 'list') {
    deps.logger.info(host.describePlayers());
    return;
  }
  if (line === 'stop') {
    stop();
    return;
  }
  if (deps.commands.dispatch(deps.console, line)) return;
  try {
    Promise.resolve(host.run(line)).catch((error: unknown) =>
      deps.logger.error('console command failed', { error: errorText(error) }),
    );
  } catch (error) {
    deps.logger.error('console command failed', { error: errorText(error) });
  }
}

/** Reads console lines from `input` through {@link handleConsoleLine} until closed. */
export function readConsoleLines(
  deps: ConsoleLineDeps,
  input: NodeJS.ReadableStream,
  host: HostConsole,
  stop: () => void,
): ConsoleReader {
  const lines = createInterface({ input, terminal: false });
  lines.on('line', (raw) => handleConsoleLine(deps, raw, host, stop));
  return lines;
}
