import { describe, expect, it } from 'vitest';
import { DEFAULT_ORDINAL_ACTIONS } from '../../plugin/config/ordinal-defaults.js';
import { MAX_TYPE_ORDINAL, TYPE_CATALOGUE, typeTitle } from '../../src/contract/type-catalogue.js';
import { DEFAULT_RULES } from '../../src/service/rules/catalogue.js';

describe('the type catalogue', () => {
  it('lists every ordinal of the contract once, in order', () => {
    expect(TYPE_CATALOGUE.map((type) => type.ordinal)).toEqual([...Array(MAX_TYPE_ORDINAL + 1).keys()]);
  });

  it('is what the reference service issues by default', () => {
    const service = DEFAULT_RULES.types.map(({ ordinal, title, category, action }) => ({
      ordinal,
      title,
      category,
      action,
    }));
    expect(service).toEqual(TYPE_CATALOGUE);
  });

  it("is the plugin's default of what each type does", () => {
    expect(DEFAULT_ORDINAL_ACTIONS).toEqual(
      Object.fromEntries(TYPE_CATALOGUE.map((type) => [String(type.ordinal), type.action])),
    );
  });

  it('names unknown ordinals by number', () => {
    expect(typeTitle(14)).toBe('Cheating');
    expect(typeTitle(99)).toBe('type 99');
  });
});
