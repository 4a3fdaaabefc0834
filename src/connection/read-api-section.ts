import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * The `api` section of a config.yml as written, not validated, for commands that decide on the
 * service before the plugin loads (`bailiff start`, `bailiff migrate`); `{}` when the file or the
 * section is absent. Throws an Error naming the file when it is not YAML.
 */
export function readApiSection(configFile: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(configFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(
      `${configFile} is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
    );
  }
  const section = (document as { api?: unknown } | null)?.api;
  return typeof section === 'object' && section !== null ? (section as Record<string, unknown>) : {};
}
