import type { Logger } from '../../src/ports/logger.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';

/**
 * Logs what a command just told its sender. The console prints what it is told, so there the
 * same news is logged at debug only (printed once); a player's failures still reach the owner's
 * log at `level`.
 */
export function logForOwner(
  logger: Logger,
  sender: CommandSender,
  level: 'info' | 'warn',
  message: string,
  fields?: Record<string, unknown>,
): void {
  logger[sender.kind === 'console' ? 'debug' : level](message, fields);
}
