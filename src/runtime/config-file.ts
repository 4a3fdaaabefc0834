import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, type FileIssue } from './errors.js';
import type { ConfigFile } from './plugin-api.js';
import { makeFilePrivate } from './private-files.js';
import { readYamlFile } from './yaml-file.js';

export interface ConfigFileSource<T> {
  /** Absolute path of the file in the data folder. */
  path: string;
  /** Absolute path of the bundled default copied there on first run; none means start from `{}`. */
  defaultsPath?: string;
  /** @default any value */
  schema?: z.ZodType<T>;
}

const anything = z.unknown();

/**
 * Opens a YAML config file: copies the bundled default on first run (mode 0600: a config may
 * hold a key), then validates it. The
 * first load throws a ConfigError when the file is invalid; `reload()` throws one and keeps the previous value.
 */
export function openConfigFile<T>(source: ConfigFileSource<T>): ConfigFile<T> {
  const schema = (source.schema ?? anything) as z.ZodType<T>;
  const makeError = (file: string, issues: FileIssue[], cause?: unknown) => new ConfigError(file, issues, cause);

  const read = (): T => {
    if (!existsSync(source.path)) {
      if (source.defaultsPath && existsSync(source.defaultsPath)) {
        mkdirSync(dirname(source.path), { recursive: true });
        copyFileSync(source.defaultsPath, source.path);
        makeFilePrivate(source.path);
      } else {
        const parsed = schema.safeParse({});
        if (parsed.success) return parsed.data;
        const missing = source.defaultsPath ? `the bundled default ${source.defaultsPath}` : 'a config file';
        throw new ConfigError(source.path, [{ key: '', expected: missing, received: 'no file' }]);
      }
    }
    return readYamlFile(source.path, schema, 'config', 'BAILIFF_CONFIG', makeError);
  };

  let current = read();
  return {
    path: resolve(source.path),
    get: () => current,
    reload: () => {
      current = read();
      return current;
    },
  };
}
