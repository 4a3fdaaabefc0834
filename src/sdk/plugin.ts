/**
 * `bailiff/plugin`: the whole API a plugin sees. The runtime resolves this specifier for every
 * plugin it loads, wherever the plugin's folder is, so a plugin needs no installed copy of
 * Bailiff at run time (only for its types when written in TypeScript).
 *
 * `z` is the runtime's zod, for `configSchema` and `loadConfigFile`, so a plugin needs no zod
 * of its own either.
 */

export { z } from 'zod';
export type { Clock } from '../ports/clock.js';
export type { Logger } from '../ports/logger.js';
export { ConfigError, type FileIssue, FileValidationError } from '../runtime/errors.js';
export * from '../runtime/plugin-api.js';

/** True for a config file's error (`config.reload()`), also when it comes from another copy of this module. */
export function isConfigError(error: unknown): error is import('../runtime/errors.js').ConfigError {
  return (error as { code?: unknown } | null)?.code === 'BAILIFF_CONFIG';
}
