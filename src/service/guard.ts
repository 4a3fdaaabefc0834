import type { Logger } from '../ports/logger.js';

const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/**
 * Runs an entry point the event loop calls directly (upgrade handler, stream snapshot, timer,
 * feed listener). Whatever it throws is logged with `fields` and handed to `onError`, so it
 * never reaches the process as an uncaught exception.
 */
export function guarded(
  logger: Logger,
  what: string,
  fields: Record<string, unknown>,
  action: () => void,
  onError?: () => void,
): void {
  try {
    action();
  } catch (error) {
    logger.error(`${what} failed`, { ...fields, error: describe(error) });
    if (!onError) return;
    try {
      onError();
    } catch (cleanupError) {
      logger.error(`${what} cleanup failed`, { ...fields, error: describe(cleanupError) });
    }
  }
}

/** {@link guarded} for an entry point that awaits (an upgrade that reads the database first). */
export async function guardedAsync(
  logger: Logger,
  what: string,
  fields: Record<string, unknown>,
  action: () => Promise<void>,
  onError?: () => void,
): Promise<void> {
  try {
    await action();
  } catch (error) {
    logger.error(`${what} failed`, { ...fields, error: describe(error) });
    if (!onError) return;
    try {
      onError();
    } catch (cleanupError) {
      logger.error(`${what} cleanup failed`, { ...fields, error: describe(cleanupError) });
    }
  }
}

/** The same for a background promise (an import job): a rejection is logged, never left unhandled. */
export function guardedPromise(
  logger: Logger,
  what: string,
  fields: Record<string, unknown>,
  promise: Promise<void>,
): Promise<void> {
  return promise.catch((error: unknown) => {
    logger.error(`${what} failed`, { ...fields, error: describe(error) });
  });
}
