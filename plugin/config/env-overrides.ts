import type { BailiffConfig } from './schema.js';

/** The environment variables that override config.yml (container deployments keep the key out of files). */
export const ENV_API_URL = 'BAILIFF_API_URL';
export const ENV_API_KEY = 'BAILIFF_API_KEY';

/** config with `BAILIFF_API_URL` / `BAILIFF_API_KEY` applied when they are set and not empty. */
export function applyEnvOverrides(config: BailiffConfig, env: NodeJS.ProcessEnv = process.env): BailiffConfig {
  const baseUrl = env[ENV_API_URL]?.trim();
  const key = env[ENV_API_KEY]?.trim();
  if (!baseUrl && !key) return config;
  return { ...config, api: { ...config.api, baseUrl: baseUrl || config.api.baseUrl, key: key || config.api.key } };
}
