import { ENV_API_KEY, ENV_API_URL } from '../../src/connection/service-connection.js';
import type { ConfigFile } from '../../src/runtime/plugin-api.js';
import type { MessageTable } from '../messages/schema.js';
import type { BailiffConfig } from './schema.js';

/**
 * The `api.*` keys a reload does not apply: the client, the outbox draining through it, the
 * stream and the commands share one connection, and swapping it under in-flight calls could
 * send queued rows with mixed credentials. They take effect at the next start.
 */
export const RESTART_ONLY_API_KEYS = [
  'baseUrl',
  'key',
  'platform',
  'timeoutMs',
  'requestsPerMinute',
  'playerSharePercent',
  'reprobeAfterMs',
] as const;

export interface ReloadedSettings {
  /** The new config.yml, its `api` section still the running one. */
  config: BailiffConfig;
  messages: MessageTable;
  /** `api.<key>` names whose new value waits for a restart (never their values: one is the key). */
  restartRequired: string[];
}

/**
 * Re-reads and validates messages.yml and config.yml. Throws the ConfigError of the first
 * invalid file before anything is returned, so the caller's running settings stay as they were.
 */
export function readReloadedSettings(
  files: { config: ConfigFile<BailiffConfig>; messages: ConfigFile<MessageTable> },
  running: BailiffConfig,
  env: NodeJS.ProcessEnv = process.env,
): ReloadedSettings {
  const messages = files.messages.reload();
  const next = files.config.reload();
  // A setting the environment gives wins over the file, so changing it in the file changes nothing.
  const fromEnvironment = new Set([env[ENV_API_URL]?.trim() ? 'baseUrl' : '', env[ENV_API_KEY]?.trim() ? 'key' : '']);
  const restartRequired = RESTART_ONLY_API_KEYS.filter(
    (key) => next.api[key] !== running.api[key] && !fromEnvironment.has(key),
  ).map((key) => `api.${key}`);
  return { config: { ...next, api: running.api }, messages, restartRequired };
}

export interface ReloadOutcome {
  /** Settings (e.g. `api.key`) that changed in the file but take effect only at the next start. */
  restartRequired?: readonly string[];
}
