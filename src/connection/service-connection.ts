import { readFileSync } from 'node:fs';
import { createError } from '../errors/create-error.js';
import { EMBEDDED_SERVICE_FILE, type EmbeddedService } from './embedded-service.js';

/** The environment variables that name the service (container deployments keep the key out of files). */
export const ENV_API_URL = 'BAILIFF_API_URL';
export const ENV_API_KEY = 'BAILIFF_API_KEY';
/** Names a file holding the key (a container's mounted secret), read when BAILIFF_API_KEY is not set. */
export const ENV_API_KEY_FILE = 'BAILIFF_API_KEY_FILE';

/** Where a setting of the connection came from. */
export type SettingSource = 'flag' | 'environment' | 'config.yml' | 'embedded';

export interface ServiceConnection {
  baseUrl: string;
  apiKey: string;
  platform: string;
  urlFrom: SettingSource;
  keyFrom: SettingSource;
}

/** What the resolver reads, most specific first; empty strings count as unset. */
export interface ConnectionInputs {
  /** Command-line flags (`bailiff migrate --api-url --api-key`). */
  flags?: { apiUrl?: string; apiKey?: string };
  env: NodeJS.ProcessEnv;
  /** The `api` section of config.yml. */
  config: { baseUrl?: unknown; key?: unknown; platform?: unknown };
  /** The embedded service `bailiff start` recorded; read only when nothing else names a service. */
  embedded: () => EmbeddedService | undefined;
}

/** No service, or half of one: the message names every place to set what is missing. */
export class ApiConnectionError extends createError('BAILIFF_API_NOT_CONFIGURED', 'ApiConnectionError') {}

const DEFAULT_PLATFORM = 'minecraft';

const NAMES: Record<SettingSource, { url: string; key: string }> = {
  flag: { url: '--api-url', key: '--api-key' },
  environment: { url: ENV_API_URL, key: ENV_API_KEY },
  'config.yml': { url: 'api.baseUrl in config.yml', key: 'api.key in config.yml' },
  embedded: { url: EMBEDDED_SERVICE_FILE, key: `the embedded service's key (${EMBEDDED_SERVICE_FILE})` },
};

/** Where a key or URL came from, in the words of a log line: `BAILIFF_API_KEY`, `api.key in config.yml`, ... */
export function describeSource(source: SettingSource, setting: 'url' | 'key'): string {
  return NAMES[source][setting];
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The key in the file BAILIFF_API_KEY_FILE names; the message names the file, never its content. */
function keyFromFile(env: NodeJS.ProcessEnv): string | undefined {
  const path = text(env[ENV_API_KEY_FILE]);
  if (path === undefined) return undefined;
  let key: string | undefined;
  try {
    key = text(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ApiConnectionError(`${ENV_API_KEY_FILE}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code}`);
  }
  if (key === undefined) throw new ApiConnectionError(`${ENV_API_KEY_FILE}: ${path} is empty`);
  return key;
}

function first(candidates: Array<[SettingSource, string | undefined]>): [SettingSource, string] | undefined {
  const found = candidates.find(([, value]) => value !== undefined);
  return found as [SettingSource, string] | undefined;
}

/**
 * The service the flags, the environment (the key in BAILIFF_API_KEY, or in the file
 * BAILIFF_API_KEY_FILE names) or config.yml name (in that order), or undefined when
 * none does. A key without a URL, or a URL without a key, is refused rather than quietly ignored.
 */
export function configuredService(inputs: Omit<ConnectionInputs, 'embedded'>): ServiceConnection | undefined {
  const { flags = {}, env, config } = inputs;
  const url = first([
    ['flag', text(flags.apiUrl)],
    ['environment', text(env[ENV_API_URL])],
    ['config.yml', text(config.baseUrl)],
  ]);
  const key = first([
    ['flag', text(flags.apiKey)],
    ['environment', text(env[ENV_API_KEY]) ?? keyFromFile(env)],
    ['config.yml', text(config.key)],
  ]);
  if (url && key) {
    const platform = text(config.platform) ?? DEFAULT_PLATFORM;
    return { baseUrl: url[1], apiKey: key[1], platform, urlFrom: url[0], keyFrom: key[0] };
  }
  if (url) {
    throw new ApiConnectionError(
      `the service URL comes from ${describeSource(url[0], 'url')} but no API key is set: set api.key in config.yml or ${ENV_API_KEY}`,
    );
  }
  if (key) {
    const where =
      key[0] === 'flag' ? '--api-url' : key[0] === 'environment' ? ENV_API_URL : 'api.baseUrl in config.yml';
    throw new ApiConnectionError(
      `${describeSource(key[0], 'key')} is set but no service URL is: set ${where} to the moderation service the key belongs to`,
    );
  }
  return undefined;
}

/**
 * The one answer to "which service, with which key": flags, then the environment, then
 * config.yml (see {@link configuredService}), else the embedded service `bailiff start` runs.
 */
export function resolveServiceConnection(inputs: ConnectionInputs): ServiceConnection {
  const configured = configuredService(inputs);
  if (configured) return configured;
  const embedded = inputs.embedded();
  if (!embedded) {
    throw new ApiConnectionError(
      `no moderation service is configured: set api.baseUrl and api.key in config.yml (or ${ENV_API_URL} and ` +
        `${ENV_API_KEY}), or run \`bailiff start\`, which runs the embedded service`,
    );
  }
  return {
    baseUrl: embedded.url,
    apiKey: embedded.apiKey,
    platform: embedded.platform,
    urlFrom: 'embedded',
    keyFrom: 'embedded',
  };
}
