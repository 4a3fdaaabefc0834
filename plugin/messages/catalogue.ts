import { clientLocaleTag } from '../../src/runtime/client-locale.js';
import { layeredMessages, type Messages } from './messages.js';
import type { MessageTable } from './schema.js';

/** The languages Bailiff ships complete (English is config/messages.yml). */
export const BUNDLED_LANGUAGES = ['en', 'de', 'es', 'fr'] as const;

/** Message tables by lower-case locale tag (`de`, `de-at`). */
export type LocaleTables = ReadonlyMap<string, MessageTable>;

export interface CatalogueSource {
  /** The owner's messages.yml (English) and the bundled English it falls back to. */
  english: MessageTable;
  bundledEnglish: MessageTable;
  /** Bundled translations (config/messages.<tag>.yml), English excluded. */
  bundled: LocaleTables;
  /** The owner's files (messages.<tag>.yml next to messages.yml). */
  owner: LocaleTables;
  /** config.yml `language`: for players whose language has no messages, and for the console. */
  defaultLanguage: string;
}

export interface Catalogue {
  /** The messages a reader of `locale` (a BCP 47 tag, or undefined when unknown) reads. */
  forLocale(locale: string | undefined): Messages;
}

/** Distinct chains are few (tags with tables), but a client names any region it likes: bound the memo. */
const MAX_MEMO = 128;

/** `de-AT` -> [`de-at`, `de`]; nothing for a tag that is not one. */
function tagsOf(locale: string | undefined): string[] {
  const tag = clientLocaleTag(locale);
  if (!tag) return [];
  const language = new Intl.Locale(tag).language;
  return [tag.toLowerCase(), language];
}

/**
 * The lookup order of a reader: their exact locale, its language, the owner's default language
 * (exact, then its language), then English; in each, the owner's file before the bundled one.
 */
export function lookupChain(
  source: Pick<CatalogueSource, 'bundled' | 'owner' | 'defaultLanguage'>,
  locale: string | undefined,
): string[] {
  const chain: string[] = [];
  for (const tag of [...tagsOf(locale), ...tagsOf(source.defaultLanguage)]) {
    // English always has every message: a reader of English reads it, not the default language.
    if (tag === 'en') break;
    if (!chain.includes(tag) && (source.owner.has(tag) || source.bundled.has(tag))) chain.push(tag);
  }
  return chain;
}

export function createCatalogue(source: CatalogueSource): Catalogue {
  const memo = new Map<string, Messages>();
  const languageOf = (tag: string) => new Intl.Locale(tag).language;
  return {
    forLocale(locale) {
      const chain = lookupChain(source, locale);
      const reader = clientLocaleTag(locale);
      const first = chain[0] ?? 'en';
      // Format in the reader's own region when they read their own language (de-AT for a de table).
      const formatLocale =
        reader && languageOf(reader) === languageOf(first) ? reader : (clientLocaleTag(first) ?? 'en');
      const key = `${formatLocale}|${chain.join(',')}`;
      let messages = memo.get(key);
      if (!messages) {
        const layers: MessageTable[] = [];
        for (const tag of chain) {
          const owner = source.owner.get(tag);
          const bundled = source.bundled.get(tag);
          if (owner) layers.push(owner);
          if (bundled) layers.push(bundled);
        }
        layers.push(source.english, source.bundledEnglish);
        if (memo.size >= MAX_MEMO) memo.clear();
        messages = layeredMessages(layers, formatLocale);
        memo.set(key, messages);
      }
      return messages;
    },
  };
}
