import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bailiffConfigSchema } from '../../plugin/config/schema.js';
import { firstColumnCodeSpans, section } from './helpers/markdown.js';
import { readRepositoryFile } from './helpers/repository-files.js';
import { dottedKeys } from './helpers/schema-keys.js';

const CONFIGURATION_PAGE = 'docs/owners/configuration.md';

/** The keys named in the first column of the config.yml table of the owners' configuration page. */
function documentedKeys(): Set<string> {
  return new Set(firstColumnCodeSpans(section(readRepositoryFile(CONFIGURATION_PAGE), 'config.yml')));
}

function undocumented(schema: z.ZodType): string[] {
  const documented = documentedKeys();
  return dottedKeys(schema).filter((key) => !documented.has(key));
}

describe(`every key of config.yml is documented in ${CONFIGURATION_PAGE}`, () => {
  it('finds the keys of the schema, nested sections included', () => {
    const keys = dottedKeys(bailiffConfigSchema);
    expect(keys).toEqual(
      expect.arrayContaining([
        'api.baseUrl',
        'sync.pollIntervalMs',
        'enforcement.loginCheck.onUnavailable',
        'appealUrl',
      ]),
    );
    expect(keys).toContain('enforcement.ordinalActions');
    expect(keys.some((key) => key.startsWith('enforcement.ordinalActions.'))).toBe(false);
  });

  it('has a table row for each key of the schema', () => {
    expect(undocumented(bailiffConfigSchema)).toEqual([]);
  });

  it('documents no key the schema does not have', () => {
    const keys = new Set(dottedKeys(bailiffConfigSchema));
    expect([...documentedKeys()].filter((key) => !keys.has(key))).toEqual([]);
  });

  it('reports a key added to the schema without a row', () => {
    const extended = bailiffConfigSchema.extend({
      undocumentedSection: z.strictObject({ setting: z.boolean().default(false) }).prefault({}),
      undocumentedKey: z.string().optional(),
    });
    expect(undocumented(extended)).toEqual([
      ...undocumented(bailiffConfigSchema),
      'undocumentedSection.setting',
      'undocumentedKey',
    ]);
  });
});
