import { join } from 'node:path';
import { UsageError } from '../../cli/command.js';
import { readEmbeddedService } from '../../connection/embedded-service.js';
import { readApiSection } from '../../connection/read-api-section.js';
import { ApiConnectionError, resolveServiceConnection } from '../../connection/service-connection.js';
import { errorMessage } from '../../errors/error-message.js';

export interface ApiSettings {
  baseUrl: string;
  apiKey: string;
  platform: string | undefined;
}

/**
 * Where to upload, by the one resolver: flags, then BAILIFF_API_URL / BAILIFF_API_KEY, then the
 * plugin folder's config.yml, else the embedded service it records. Throws a {@link UsageError}
 * naming what is missing and where to set it; the key itself is never part of a message.
 */
export async function resolveApiSettings(
  flags: { apiUrl?: string; apiKey?: string },
  env: NodeJS.ProcessEnv,
  pluginFolder: string,
): Promise<ApiSettings> {
  try {
    const config = readApiSection(join(pluginFolder, 'config.yml'));
    const connection = resolveServiceConnection({
      flags,
      env,
      config,
      embedded: () => readEmbeddedService(pluginFolder),
    });
    return { baseUrl: connection.baseUrl, apiKey: connection.apiKey, platform: connection.platform };
  } catch (error) {
    const message = errorMessage(error);
    const hint = message.startsWith('no moderation service')
      ? ' (or give --api-url and --api-key, or use --dry-run)'
      : ' (or use --dry-run)';
    throw new UsageError(error instanceof ApiConnectionError ? `${message}${hint}` : message);
  }
}
