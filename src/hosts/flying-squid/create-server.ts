import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import type { Logger } from '../../ports/logger.js';
import { errorText } from '../../runtime/event-bus.js';
import { releaseExitHookSignals } from './exit-hook.js';
import type { FsModule, FsServer } from './flying-squid-types.js';

const require = createRequire(import.meta.url);

/** Strips ANSI colours (flying-squid colours its own log lines) and `&` codes. */
function cleanLogText(message: unknown): string {
  return (
    String(message)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes start with ESC.
      .replace(/\u001b\[[0-9;]*m/g, '')
      .replace(/&[0-9a-fk-or]/gi, '')
  );
}

/**
 * Runs `create` with process.stdin/stdout replaced by inert streams: flying-squid's log module
 * opens a readline prompt on them when first loaded, which would steal console input and
 * print prompts into our output.
 */
function withDetachedStdio<T>(create: () => T): T {
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
  const stdout = Object.getOwnPropertyDescriptor(process, 'stdout')!;
  Object.defineProperty(process, 'stdin', { value: new PassThrough(), configurable: true });
  Object.defineProperty(process, 'stdout', { value: new PassThrough(), configurable: true });
  try {
    return create();
  } finally {
    Object.defineProperty(process, 'stdin', stdin);
    Object.defineProperty(process, 'stdout', stdout);
  }
}

/** Creates a flying-squid server whose logs go to `logger` and that leaves stdin and signals alone. */
export function createQuietServer(options: Record<string, unknown>, logger: Logger): FsServer {
  releaseExitHookSignals(require);
  const flyingSquid = require('flying-squid') as FsModule;
  const serv = withDetachedStdio(() =>
    flyingSquid.createMCServer({ ...options, logging: false, noConsoleOutput: true }),
  );
  serv.log = (message) => logger.debug(cleanLogText(message));
  // With a debug logger flying-squid adds no process error handlers of its own (which exit on
  // any uncaught error): the runtime's process guard decides.
  serv.debug = (message) => logger.debug(cleanLogText(message));
  serv.info = (message) => logger.info(cleanLogText(message));
  serv.warn = (message) => logger.warn(cleanLogText(message));
  serv.err = (message) => logger.error(cleanLogText(message));
  return serv;
}

/** Quits (kicking players), bounded to 3 s, then stops the tick interval that quit leaves running. */
export async function closeServer(serv: FsServer, logger: Logger): Promise<void> {
  const closing = serv.quit('Server closed').catch((error: unknown) => {
    logger.warn('server did not close cleanly', { error: errorText(error) });
  });
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 3000);
    timer.unref();
  });
  await Promise.race([closing, limit]);
  clearTimeout(timer);
  serv.stopTickInterval?.();
}
