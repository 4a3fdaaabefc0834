import { embeddedServicePath, readEmbeddedService } from './embedded-service.js';
import type { BailiffConfig } from './schema.js';

export interface ApiConnection {
  baseUrl: string;
  apiKey: string;
  platform: string;
  /** Where the values came from, for the startup log line (never the key itself). */
  source: 'config' | 'embedded';
}

/** Raised when no service is configured: names the keys and variables to set. */
export class ApiConnectionError extends Error {
  readonly code = 'BAILIFF_API_NOT_CONFIGURED';
  constructor(message: string) {
    super(message);
    this.name = 'ApiConnectionError';
  }
}

/**
 * The service to talk to: config.yml (after env overrides) when api.baseUrl is set, else the
 * embedded service `bailiff start` recorded in the data folder.
 */
export function resolveApiConnection(config: BailiffConfig, dataFolder: string): ApiConnection {
  if (config.api.baseUrl !== '') {
    if (config.api.key === '') {
      throw new ApiConnectionError('api.key is empty: set it in config.yml or in BAILIFF_API_KEY');
    }
    return { baseUrl: config.api.baseUrl, apiKey: config.api.key, platform: config.api.platform, source: 'config' };
  }
  const embedded = readEmbeddedService(dataFolder);
  if (!embedded) {
    throw new ApiConnectionError(
      `api.baseUrl is empty and no embedded service is running (${embeddedServicePath(dataFolder)} not found): ` +
        'set api.baseUrl and api.key in config.yml (or BAILIFF_API_URL / BAILIFF_API_KEY), or run `bailiff start`',
    );
  }
  return { baseUrl: embedded.url, apiKey: embedded.apiKey, platform: embedded.platform, source: 'embedded' };
}
