import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLED_LANGUAGES } from '../../../plugin/messages/catalogue.js';
import { loadBundledMessages } from '../../../plugin/messages/load.js';
import { loadBundledLocales } from '../../../plugin/messages/locale-files.js';
import { placeholdersOf } from '../../../plugin/messages/messages.js';
import type { MessageTable } from '../../../plugin/messages/schema.js';

const root = join(import.meta.dirname, '..', '..', '..');
const english = loadBundledMessages(root);
const locales = loadBundledLocales(join(root, 'config'));

const COLOUR_CODE = /&[0-9a-fk-or]/gi;
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** Every difference of a translation from English: a key missing or extra, a placeholder or colour code not the same, another number of lines. */
function differencesFromEnglish(table: MessageTable): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(english)) if (!(key in table)) problems.push(`${key}: missing`);
  for (const [key, text] of Object.entries(table)) {
    const reference = english[key];
    if (reference === undefined) {
      problems.push(`${key}: not an English key`);
      continue;
    }
    const want = sorted(placeholdersOf(reference));
    const got = sorted(placeholdersOf(text));
    if (want.join() !== got.join())
      problems.push(`${key}: placeholders {${got.join('}, {')}}, English has {${want.join('}, {')}}`);
    const codes = (value: string) => sorted(Array.from(value.matchAll(COLOUR_CODE), (m) => m[0].toLowerCase()));
    if (codes(reference).join() !== codes(text).join()) problems.push(`${key}: colour codes differ from English`);
    if (reference.split('\n').length !== text.split('\n').length) problems.push(`${key}: lines differ from English`);
  }
  return problems;
}

describe('the bundled languages', () => {
  it('are English, German, Spanish and French', () => {
    expect(['en', ...[...locales.keys()].sort()]).toEqual(
      [...BUNDLED_LANGUAGES].sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b))),
    );
  });

  for (const tag of BUNDLED_LANGUAGES.filter((language) => language !== 'en')) {
    it(`${tag}: every key of English, no other, the same placeholders, colour codes and lines`, () => {
      const table = locales.get(tag);
      expect(table, `config/messages.${tag}.yml`).toBeDefined();
      expect(differencesFromEnglish(table ?? {})).toEqual([]);
    });

    it(`${tag}: is translated, not a copy of English`, () => {
      const table = locales.get(tag) ?? {};
      const wordsOf = (text: string) => text.replace(/\{[^}]*\}|&[0-9a-fk-or]/gi, '');
      const copied = Object.keys(english).filter(
        (key) => table[key] === english[key] && /[a-z]{4}/i.test(wordsOf(english[key] ?? '')),
      );
      // Words every one of these languages writes alike: "Ticket", "Migration", "permanent".
      const alike = ['commands.ticket.header', 'commands.migrate.progress', 'time.permanent'];
      expect(copied.filter((key) => !alike.includes(key))).toEqual([]);
    });
  }

  it('a missing key, an extra key, a lost or an added placeholder each count as a difference', () => {
    const german = { ...(locales.get('de') ?? {}) };
    delete german['ban.screen'];
    german['ban.scren'] = 'x';
    german['mute.chat-blocked'] = '&cStumm: &f{reason}&c. (ID {id})';
    german['kick.screen'] = `${german['kick.screen']} {extra}`;
    expect(differencesFromEnglish(german)).toEqual([
      'ban.screen: missing',
      expect.stringMatching(/^kick\.screen: placeholders .*\{extra\}/),
      'mute.chat-blocked: placeholders {id}, {reason}, English has {id}, {reason}, {remaining}',
      'ban.scren: not an English key',
    ]);
  });
});
