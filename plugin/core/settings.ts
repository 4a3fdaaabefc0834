import type { BailiffConfig } from '../config/schema.js';
import { createPolicy, type EnforcementPolicy } from '../kinds/policy.js';
import { type Catalogue, createCatalogue, type LocaleTables } from '../messages/catalogue.js';
import type { Messages } from '../messages/messages.js';
import type { MessageReader } from '../messages/reader.js';
import type { MessageTable } from '../messages/schema.js';

export type { MessageReader } from '../messages/reader.js';

/** config.yml and messages.yml as the plugin runs them; a reload replaces them whole. */
export interface CoreSettings {
  config(): BailiffConfig;
  /**
   * The messages `reader` reads, in their language; without a reader (the console, staff
   * broadcasts' log line) in config.yml `language`.
   */
  messages(reader?: MessageReader): Messages;
  /** What config.yml says each punishment does here. */
  policy(): EnforcementPolicy;
  /** Takes a reloaded config.yml, messages.yml and locale files, then tells every listener. */
  replace(next: { config: BailiffConfig; messages: MessageTable; locales?: LocaleTables }): void;
  /** Called after each {@link replace}; returns a function that removes the listener. */
  onReplaced(listener: () => void): () => void;
}

export interface LocaleSources {
  /** Bundled translations (config/messages.<tag>.yml). @default none */
  bundled?: LocaleTables;
  /** The owner's messages.<tag>.yml files. @default none */
  owner?: LocaleTables;
  /** The language a player last used here, for a reader whose client has not said yet. @default none */
  remembered?: (uuid: string) => string | undefined;
}

export function createCoreSettings(
  config: BailiffConfig,
  messages: MessageTable,
  bundledMessages: MessageTable = {},
  locales: LocaleSources = {},
): CoreSettings {
  const bundled = locales.bundled ?? new Map();
  const catalogueOf = (next: BailiffConfig, english: MessageTable, owner: LocaleTables): Catalogue =>
    createCatalogue({ english, bundledEnglish: bundledMessages, bundled, owner, defaultLanguage: next.language });
  const build = (next: BailiffConfig, english: MessageTable, owner: LocaleTables) => {
    const catalogue = catalogueOf(next, english, owner);
    return {
      config: next,
      owner,
      catalogue,
      defaults: catalogue.forLocale(undefined),
      policy: createPolicy(next.enforcement),
    };
  };
  let current = build(config, messages, locales.owner ?? new Map());
  const listeners = new Set<() => void>();
  return {
    config: () => current.config,
    messages(reader) {
      if (!reader) return current.defaults;
      const locale = reader.locale ?? (reader.uuid === undefined ? undefined : locales.remembered?.(reader.uuid));
      return locale === undefined ? current.defaults : current.catalogue.forLocale(locale);
    },
    policy: () => current.policy,
    replace(next) {
      current = build(next.config, next.messages, next.locales ?? current.owner);
      for (const listener of listeners) listener();
    },
    onReplaced(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
