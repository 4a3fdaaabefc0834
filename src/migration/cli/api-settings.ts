import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { UsageError } from '../../cli/command.js';

export interface ApiSettings {
  baseUrl: string;
  apiKey: string;
  platform: string | undefined;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The plugin's `config.yml` api section, then the embedded service `bailiff start` recorded. */
async function fromPluginFolder(pluginFolder: string): Promise<Partial<ApiSettings>> {
  const configPath = join(pluginFolder, 'config.yml');
  const configText = await readOptional(configPath);
  let api: Record<string, unknown> = {};
  if (configText !== undefined) {
    let document: unknown;
    try {
      document = parseYaml(configText);
    } catch (error) {
      throw new UsageError(
        `${configPath} is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
      );
    }
    const section = (document as { api?: unknown } | null)?.api;
    if (typeof section === 'object' && section !== null) api = section as Record<string, unknown>;
  }
  if (text(api.baseUrl)) return { baseUrl: text(api.baseUrl), apiKey: text(api.key), platform: text(api.platform) };
  const embeddedText = await readOptional(join(pluginFolder, 'embedded-service.json'));
  if (embeddedText === undefined) return { platform: text(api.platform) };
  try {
    const embedded = JSON.parse(embeddedText) as Record<string, unknown>;
    return { baseUrl: text(embedded.url), apiKey: text(embedded.apiKey), platform: text(embedded.platform) };
  } catch {
    return { platform: text(api.platform) };
  }
}

/**
 * Where to upload: flags, then BAILIFF_API_URL / BAILIFF_API_KEY, then the plugin folder's
 * config.yml (or the embedded service it records). Throws a {@link UsageError} naming every place
 * it looked; the key itself is never part of a message.
 */
export async function resolveApiSettings(
  flags: { apiUrl?: string; apiKey?: string },
  env: NodeJS.ProcessEnv,
  pluginFolder: string,
): Promise<ApiSettings> {
  let baseUrl = flags.apiUrl ?? text(env.BAILIFF_API_URL);
  let apiKey = flags.apiKey ?? text(env.BAILIFF_API_KEY);
  let platform: string | undefined;
  if (baseUrl === undefined || apiKey === undefined) {
    const fromFiles = await fromPluginFolder(pluginFolder);
    baseUrl ??= fromFiles.baseUrl;
    apiKey ??= fromFiles.apiKey;
    platform = fromFiles.platform;
  }
  const where = `--api-url/--api-key, BAILIFF_API_URL/BAILIFF_API_KEY or the api section of ${join(pluginFolder, 'config.yml')}`;
  if (baseUrl === undefined) throw new UsageError(`no service URL: set ${where} (or use --dry-run)`);
  if (apiKey === undefined) throw new UsageError(`no API key: set ${where} (or use --dry-run)`);
  return { baseUrl, apiKey, platform };
}
