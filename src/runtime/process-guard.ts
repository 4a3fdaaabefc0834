import type { Logger } from '../ports/logger.js';
import { errorText } from './event-bus.js';

/** The part of `process` the guard listens on. */
export type ProcessEvents = Pick<NodeJS.Process, 'on' | 'off'>;

export interface ProcessGuardOptions {
  logger: Logger;
  /** Names the plugin an uncaught error or rejection came from, undefined when none can be named. */
  originOf(error: unknown): string | undefined;
  /**
   * Called once for an uncaught exception no plugin can be named for: the host's own state is
   * unknown, so the caller stops the server (as Node would, by default).
   */
  onUnattributedException(error: unknown): void;
  /** @default process */
  target?: ProcessEvents;
}

/**
 * Keeps one plugin's mistake from ending the server: an uncaught exception or an unhandled
 * rejection a plugin caused is logged with the plugin's name and the server keeps running. A
 * rejection no plugin can be named for is logged too; an exception no plugin can be named for
 * goes to `onUnattributedException`. Returns a function that removes the guard.
 */
export function installProcessGuard(options: ProcessGuardOptions): () => void {
  const target = options.target ?? process;
  const { logger } = options;
  let gaveUp = false;
  const onException = (error: unknown) => {
    const plugin = options.originOf(error);
    if (plugin !== undefined) {
      logger.error(`[${plugin}] uncaught error in plugin ${plugin}; the server keeps running`, {
        error: errorText(error),
      });
      return;
    }
    logger.error('uncaught error outside any plugin; stopping the server', { error: errorText(error) });
    if (gaveUp) return;
    gaveUp = true;
    options.onUnattributedException(error);
  };
  const onRejection = (reason: unknown) => {
    const plugin = options.originOf(reason);
    if (plugin !== undefined) {
      logger.error(`[${plugin}] unhandled promise rejection in plugin ${plugin}; the server keeps running`, {
        error: errorText(reason),
      });
      return;
    }
    logger.error('unhandled promise rejection outside any plugin', { error: errorText(reason) });
  };
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return () => {
    target.off('uncaughtException', onException);
    target.off('unhandledRejection', onRejection);
  };
}
