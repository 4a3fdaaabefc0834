import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fromServicePunishment } from '../../../plugin/cache/cached-punishment.js';
import { bailiffConfigSchema } from '../../../plugin/config/schema.js';
import { createCoreSettings } from '../../../plugin/core/settings.js';
import { renderFor } from '../../../plugin/enforcement/punishment-text.js';
import { createCatalogue, lookupChain } from '../../../plugin/messages/catalogue.js';
import { commandReader, readingAs } from '../../../plugin/messages/command-reader.js';
import { formatTimestamp } from '../../../plugin/messages/date.js';
import { formatDuration } from '../../../plugin/messages/duration.js';
import { loadBundledMessages } from '../../../plugin/messages/load.js';
import { loadBundledLocales, loadOwnerLocales, localeOfFile } from '../../../plugin/messages/locale-files.js';
import { RememberedLocales } from '../../../plugin/players/remembered-locales.js';
import { openDb } from '../../../src/db/open-db.js';
import { clientLocaleTag } from '../../../src/runtime/client-locale.js';
import { ConfigError } from '../../../src/runtime/errors.js';
import { servicePunishment } from '../helpers/fakes.js';

const root = join(import.meta.dirname, '..', '..', '..');
const bundledEnglish = loadBundledMessages(root);
const bundled = loadBundledLocales(join(root, 'config'));

function catalogue(
  options: { owner?: Map<string, Record<string, string>>; language?: string; english?: Record<string, string> } = {},
) {
  return createCatalogue({
    english: options.english ?? {},
    bundledEnglish,
    bundled,
    owner: options.owner ?? new Map(),
    defaultLanguage: options.language ?? 'en',
  });
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'bailiff-locales-'));
  folders.push(folder);
  mkdirSync(folder, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

describe("a client's reported language", () => {
  it('reads Java (de_de) and Bedrock (de_DE) forms as one BCP 47 tag, and refuses what is not one', () => {
    expect(clientLocaleTag('de_de')).toBe('de-DE');
    expect(clientLocaleTag('fr_FR')).toBe('fr-FR');
    expect(clientLocaleTag('es-mx')).toBe('es-MX');
    expect(clientLocaleTag('')).toBeUndefined();
    expect(clientLocaleTag('not a locale')).toBeUndefined();
    expect(clientLocaleTag(42)).toBeUndefined();
    expect(clientLocaleTag('x'.repeat(200))).toBeUndefined();
  });
});

describe('looking up a message', () => {
  it("uses the player's language: a German, Spanish and French client each read their own", () => {
    const messages = catalogue();
    expect(messages.forLocale('de-DE').render('freeze.unfrozen')).toBe('&aDu bist nicht mehr eingefroren.');
    expect(messages.forLocale('es-ES').render('freeze.unfrozen')).toBe('&aYa no estás congelado.');
    expect(messages.forLocale('fr-CA').render('freeze.unfrozen')).toBe("&aTu n'es plus gelé.");
    expect(messages.forLocale('en-US').render('freeze.unfrozen')).toBe('&aYou are no longer frozen.');
  });

  it('falls back from the exact locale to its language, to the default language, to English', () => {
    const owner = new Map([
      ['de-at', { 'freeze.unfrozen': 'Servus, aufgetaut.' }],
      ['nl', { 'freeze.unfrozen': 'Je bent niet meer bevroren.' }],
    ]);
    const source = { bundled, owner, defaultLanguage: 'es' };
    expect(lookupChain(source, 'de-AT')).toEqual(['de-at', 'de', 'es']);
    expect(lookupChain(source, 'ja-JP')).toEqual(['es']);
    expect(lookupChain({ ...source, defaultLanguage: 'en' }, undefined)).toEqual([]);

    const messages = catalogue({ owner, language: 'es' });
    expect(messages.forLocale('de-AT').render('freeze.unfrozen')).toBe('Servus, aufgetaut.');
    // A key the Austrian file lacks comes from German.
    expect(messages.forLocale('de-AT').render('freeze.command-blocked', { command: 'spawn' })).toBe(
      '&cDu kannst /spawn nicht verwenden, solange du eingefroren bist.',
    );
    // Dutch is the owner's own language: its keys, then the default language (Spanish) for the rest.
    expect(messages.forLocale('nl-NL').render('freeze.unfrozen')).toBe('Je bent niet meer bevroren.');
    expect(messages.forLocale('nl-NL').render('reason.none')).toBe('sin motivo indicado');
    // A language nobody has: the network's default.
    expect(messages.forLocale('ja-JP').render('reason.none')).toBe('sin motivo indicado');
    expect(messages.forLocale(undefined).render('reason.none')).toBe('sin motivo indicado');
  });

  it("reads English last: the owner's messages.yml, then the bundled English", () => {
    const owner = new Map([['fr', { 'reason.none': 'pas de raison' }]]);
    const messages = createCatalogue({
      english: { 'reason.none': 'none given', 'custom.key': 'owner only' },
      bundledEnglish: { ...bundledEnglish, 'only.english': 'bundled english' },
      bundled,
      owner,
      defaultLanguage: 'en',
    });
    expect(messages.forLocale('fr-FR').render('reason.none')).toBe('pas de raison');
    expect(messages.forLocale('fr-FR').render('custom.key')).toBe('owner only');
    expect(messages.forLocale('fr-FR').render('only.english')).toBe('bundled english');
    expect(messages.forLocale('en-GB').render('reason.none')).toBe('none given');
    // The owner's English does not hide the bundled German from German players.
    expect(messages.forLocale('de-DE').render('reason.none')).toBe('kein Grund angegeben');
  });

  it('formats in the reader locale when it reads its own language, else in the table it reads', () => {
    const messages = catalogue({ language: 'fr' });
    expect(messages.forLocale('de-AT').locale).toBe('de-AT');
    expect(messages.forLocale('ja-JP').locale).toBe('fr');
    expect(messages.forLocale('en-US').locale).toBe('en-US');
  });
});

describe('a punishment message in the reader language', () => {
  it('fills {remaining} and {expires} the way the locale writes them', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    const mute = fromServicePunishment(
      servicePunishment({
        id: 'm1',
        type_ordinal: 1,
        duration: 36 * 3_600_000,
        started: new Date(now).toISOString(),
        reason: '',
      }),
    );
    const german = catalogue().forLocale('de-DE');
    expect(renderFor(german, 'mute.chat-blocked', mute, now, '')).toBe(
      '&cDu bist stummgeschaltet: &fkein Grund angegeben&c (verbleibend: &f1 Tg. 12 Std.&c, ID m1)',
    );
    const english = catalogue().forLocale('en');
    expect(renderFor(english, 'mute.chat-blocked', mute, now, '')).toBe(
      '&cYou are muted: &fno reason given&c. Expires: &f1d 12h&c. (ID m1)',
    );
    expect(renderFor(catalogue().forLocale('fr-FR'), 'mute.chat-blocked', mute, now, '', {})).toContain('&f1 j 12 h&c');
  });

  it('writes durations and UTC dates per locale; English keeps 7d 12h and the ISO-like date', () => {
    const day = 86_400_000;
    expect(formatDuration(7 * day + 12 * 3_600_000)).toBe('7d 12h');
    expect(formatDuration(7 * day + 12 * 3_600_000, 'en-US')).toBe('7d 12h');
    expect(formatDuration(7 * day + 12 * 3_600_000, 'de-DE')).toBe('7 Tg. 12 Std.');
    expect(formatDuration(7 * day + 12 * 3_600_000, 'es')).toBe('7 d 12 h');
    expect(formatDuration(30 * 60_000, 'fr')).toBe('30 min');
    expect(formatDuration(0, 'de')).toBe('0 Sek.');
    // A three-year ban reads as it always did: no thousands separator.
    expect(formatDuration(1095 * day)).toBe('1095d');
    expect(formatDuration(1095 * day, 'de')).toBe('1095 Tg.');
    const at = Date.parse('2026-11-22T10:14:00Z');
    expect(formatTimestamp(at)).toBe('2026-11-22 10:14 UTC');
    expect(formatTimestamp(at, 'de-DE')).toBe('22.11.2026, 10:14 UTC');
    expect(formatTimestamp(at, 'fr-FR')).toBe('22 nov. 2026, 10:14 UTC');
    expect(formatTimestamp(at, 'es-ES')).toBe('22 nov 2026, 10:14 UTC');
  });
});

describe("the owner's locale files", () => {
  it('reads messages.<tag>.yml next to messages.yml, in any spelling of the tag', () => {
    expect(localeOfFile('messages.de.yml')).toBe('de');
    expect(localeOfFile('messages.pt_BR.yml')).toBe('pt-br');
    expect(localeOfFile('messages.de-AT.yml')).toBe('de-at');
    expect(localeOfFile('messages.yml')).toBeUndefined();
    expect(localeOfFile('config.yml')).toBeUndefined();
    const folder = folderWith({
      'messages.yml': 'reason: {none: x}',
      'messages.de.yml': 'reason:\n  none: "ohne Grund"\n',
      'messages.pt_br.yml': 'reason:\n  none: "sem motivo"\n',
    });
    const warnings: string[] = [];
    const tables = loadOwnerLocales(folder, bundledEnglish, (line) => warnings.push(line));
    expect([...tables.keys()].sort()).toEqual(['de', 'pt-br']);
    expect(tables.get('de')).toEqual({ 'reason.none': 'ohne Grund' });
    expect(warnings).toEqual([]);
  });

  it('refuses a file whose value is not a string, naming the file and the key', () => {
    const folder = folderWith({ 'messages.fr.yml': 'ban:\n  screen:\n    - not\n    - a string\n' });
    let error: unknown;
    try {
      loadOwnerLocales(folder, bundledEnglish, () => {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain(join(folder, 'messages.fr.yml'));
    expect(String((error as Error).message)).toContain('ban.screen');
  });

  it('refuses a file that is not YAML, naming the file', () => {
    const folder = folderWith({ 'messages.es.yml': 'ban: "unclosed\n' });
    expect(() => loadOwnerLocales(folder, bundledEnglish, () => {})).toThrow(join(folder, 'messages.es.yml'));
  });

  it('warns of a key English does not have and of a placeholder the message does not fill, naming file and key', () => {
    const folder = folderWith({
      'messages.de.yml': 'ban:\n  scren: "x"\nmute:\n  chat-blocked: "Stumm bis {bis}: {reason}"\n',
    });
    const warnings: string[] = [];
    const tables = loadOwnerLocales(folder, bundledEnglish, (line) => warnings.push(line));
    const file = join(folder, 'messages.de.yml');
    expect(warnings).toEqual([
      `${file}: ban.scren: not a message key (did you mean ban.screen?); it is never shown`,
      `${file}: mute.chat-blocked: {bis} is not a placeholder of this message (it has {reason}, {remaining}, {id}); it shows as typed`,
    ]);
    expect(tables.get('de')?.['mute.chat-blocked']).toBe('Stumm bis {bis}: {reason}');
  });
});

describe('a player whose client has not said its language', () => {
  it('reads the language they last used here, else the default language', () => {
    const db = openDb(':memory:');
    const remembered = new RememberedLocales(db);
    const config = bailiffConfigSchema.parse({ language: 'fr' });
    const settings = createCoreSettings(config, {}, bundledEnglish, {
      bundled,
      remembered: (uuid) => remembered.lastOf(uuid),
    });
    const uuid = '0f3c1a4e-0000-4000-8000-000000000001';
    expect(settings.messages({ uuid }).render('reason.none')).toBe('aucune raison donnée');
    remembered.remember(uuid, 'de-DE', 1);
    remembered.release(uuid);
    expect(settings.messages({ uuid: uuid.toUpperCase() }).render('reason.none')).toBe('kein Grund angegeben');
    // The client's own word wins over the memory; no reader is the console: the default.
    expect(settings.messages({ uuid, locale: 'es-ES' }).render('reason.none')).toBe('sin motivo indicado');
    expect(settings.messages().render('reason.none')).toBe('aucune raison donnée');
    // A new file (a restart) still knows it.
    expect(new RememberedLocales(db).lastOf(uuid)).toBe('de-DE');
    db.close();
  });

  it('rejects a config.yml language that is not a language tag', () => {
    const parsed = bailiffConfigSchema.safeParse({ language: 'not a language' });
    expect(parsed.success).toBe(false);
    expect(bailiffConfigSchema.parse({}).language).toBe('en');
  });
});

describe("a command's replies", () => {
  it("are in the sender's language through the command's awaits; the console reads the default", async () => {
    const player = {
      kind: 'player' as const,
      name: 'Steve',
      uuid: 'u1',
      locale: 'de-DE',
      sendMessage: () => {},
      hasPermission: () => false,
    };
    const seen = await readingAs(player, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return commandReader();
    });
    expect(seen).toEqual({ uuid: 'u1', locale: 'de-DE' });
    const console = { kind: 'console' as const, name: 'CONSOLE', sendMessage: () => {}, hasPermission: () => true };
    expect(readingAs(console, () => commandReader())).toBeUndefined();
    expect(commandReader()).toBeUndefined();
  });
});
