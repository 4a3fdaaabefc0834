import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../src/runtime/errors.js';
import { nearestKey } from '../../src/runtime/nearest-key.js';
import { readYamlFile } from '../../src/runtime/yaml-file.js';
import type { LocaleTables } from './catalogue.js';
import { placeholdersOf } from './messages.js';
import { type MessageTable, messagesSchema } from './schema.js';

/** `messages.de.yml`, `messages.pt_br.yml`, `messages.de-AT.yml`: one language's messages. */
const LOCALE_FILE = /^messages\.([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)\.yml$/;

/** The lower-case tag a locale file stands for (`messages.pt_BR.yml` -> `pt-br`), or undefined. */
export function localeOfFile(fileName: string): string | undefined {
  const match = LOCALE_FILE.exec(fileName);
  if (!match?.[1]) return undefined;
  try {
    return Intl.getCanonicalLocales(match[1].replaceAll('_', '-'))[0]?.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Each locale file of a folder, by tag, read and checked (a value that is not a string throws a ConfigError naming file and key). */
export function readLocaleFolder(folder: string): Map<string, { file: string; table: MessageTable }> {
  const found = new Map<string, { file: string; table: MessageTable }>();
  if (!existsSync(folder)) return found;
  for (const name of readdirSync(folder).sort()) {
    const tag = localeOfFile(name);
    if (!tag) continue;
    const file = join(folder, name);
    if (found.has(tag)) {
      throw new ConfigError(file, [
        { key: '', expected: 'one file per language', received: `a second file for ${tag}` },
      ]);
    }
    const table = readYamlFile(
      file,
      messagesSchema,
      'config',
      'BAILIFF_CONFIG',
      (f, issues, cause) => new ConfigError(f, issues, cause),
    );
    found.set(tag, { file, table });
  }
  return found;
}

/** The bundled translations beside the bundled messages.yml (config/messages.<tag>.yml). */
export function loadBundledLocales(bundledFolder: string): LocaleTables {
  return new Map([...readLocaleFolder(bundledFolder)].map(([tag, { table }]) => [tag, table]));
}

/**
 * What is doubtful in an owner's locale file, one line each naming the file and key: a key
 * English does not have (likely a typo; it is never shown), or a placeholder the English
 * message does not fill (it would show as typed).
 */
export function localeFileWarnings(file: string, table: MessageTable, english: MessageTable): string[] {
  const known = Object.keys(english);
  const warnings: string[] = [];
  for (const [key, text] of Object.entries(table)) {
    const reference = english[key];
    if (reference === undefined) {
      const meant = nearestKey(key, known);
      warnings.push(`${file}: ${key}: not a message key${meant ? ` (did you mean ${meant}?)` : ''}; it is never shown`);
      continue;
    }
    const filled = placeholdersOf(reference);
    for (const name of placeholdersOf(text)) {
      if (!filled.has(name)) {
        warnings.push(
          `${file}: ${key}: {${name}} is not a placeholder of this message (it has ${[...filled].map((p) => `{${p}}`).join(', ') || 'none'}); it shows as typed`,
        );
      }
    }
  }
  return warnings;
}

/** The owner's locale files next to messages.yml; throws a ConfigError naming the file and key when one is invalid. */
export function loadOwnerLocales(
  dataFolder: string,
  english: MessageTable,
  warn: (line: string) => void,
): LocaleTables {
  const tables = new Map<string, MessageTable>();
  for (const [tag, { file, table }] of readLocaleFolder(dataFolder)) {
    for (const line of localeFileWarnings(file, table, english)) warn(line);
    tables.set(tag, table);
  }
  return tables;
}
