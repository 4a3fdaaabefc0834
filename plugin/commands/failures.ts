import { describeIssues, isApiError, isAuthFailure, isRateLimited, isTransient } from '../../src/api/errors.js';
import type { CommandSender } from '../../src/runtime/plugin-api.js';
import type { CommandDeps } from './deps.js';
import { logForOwner } from './staff-log.js';

/**
 * Tells the sender why a call to the service failed, in one line from messages.yml, never a
 * stack trace. The error's details go to the log (ApiError messages never carry the key).
 */
export function reportFailure(sender: CommandSender, deps: CommandDeps, error: unknown, action: string): void {
  sender.sendMessage(describeFailure(deps, error, action));
  const fields = { sender: sender.name, error: isApiError(error) ? error.toJSON() : String(error) };
  // "Details are in the server log": those details must be logged even when the console asked.
  if (refersToLog(error)) deps.logger.warn(`command ${action} failed`, fields);
  else logForOwner(deps.logger, sender, 'warn', `command ${action} failed`, fields);
}

/** Whether {@link describeFailure}'s line sends the reader to the log for the details. */
function refersToLog(error: unknown): boolean {
  return !isApiError(error) || (!isTransient(error) && error.kind !== 'http' && error.kind !== 'invalid_request');
}

/** The rendered line for {@link reportFailure}. */
export function describeFailure(deps: CommandDeps, error: unknown, action: string): string {
  const { messages } = deps;
  if (!isApiError(error)) return messages.render('commands.error.internal', { action });
  if (isAuthFailure(error)) return messages.render('commands.error.key-rejected', { action });
  if (isRateLimited(error)) {
    const seconds = Math.max(1, Math.ceil((error.retryAfterMs ?? 30_000) / 1000));
    return messages.render('commands.error.rate-limited', { action, seconds });
  }
  if (isTransient(error)) {
    // A service that answers but cannot serve (its database is down) says why: pass that on.
    if (error.kind === 'http' && error.serviceMessage !== undefined) {
      return messages.render('commands.error.unavailable', {
        action,
        status: error.status ?? 0,
        message: error.serviceMessage,
      });
    }
    return messages.render('commands.error.unreachable', { action });
  }
  switch (error.kind) {
    case 'http':
      return messages.render('commands.error.service', {
        action,
        status: error.status ?? 0,
        message: error.serviceMessage ?? error.message,
      });
    case 'invalid_request':
      return messages.render('commands.error.invalid-request', {
        action,
        message: error.issues ? describeIssues(error.issues) : error.message,
      });
    default:
      return messages.render('commands.error.invalid-response', { action });
  }
}
