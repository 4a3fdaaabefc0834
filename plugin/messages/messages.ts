import { withoutClauseOf } from './optional-placeholder.js';
import type { MessageTable } from './schema.js';

export type Placeholders = Readonly<Record<string, string | number>>;

export interface MessageRenderer {
  render(key: string, placeholders?: Record<string, string | number>, options?: RenderOptions): string;
  /** The BCP 47 tag durations and dates are formatted in (`de-DE`). @default English */
  readonly locale?: string;
}

export interface Messages {
  /**
   * The message at `key` with `{name}` placeholders filled; unknown placeholders stay as typed.
   * `&` codes are kept: the receiver (sendMessage, kick) renders them.
   */
  render(key: string, placeholders?: Placeholders, options?: RenderOptions): string;
  has(key: string): boolean;
  /** The BCP 47 tag of the reader's language, for durations and dates (`en`, `de-DE`). */
  readonly locale: string;
}

export interface RenderOptions {
  /**
   * Placeholders whose text is left out with the clause that shows them when their value is
   * empty: `Appeal at: {appealUrl}` disappears without an appeal URL. @default none
   */
  optional?: readonly string[];
}

const PLACEHOLDER = /\{([a-zA-Z0-9_.-]+)\}/g;

/** Every `{placeholder}` name of a template, once each. */
export function placeholdersOf(template: string): Set<string> {
  return new Set(Array.from(template.matchAll(PLACEHOLDER), (match) => match[1] as string));
}

/**
 * Messages from layered tables, the first table holding a key winning; a key in none renders as
 * the key itself so a typo is visible, not fatal.
 */
export function layeredMessages(layers: readonly MessageTable[], locale: string): Messages {
  const merged = new Map<string, string>();
  for (const table of [...layers].reverse()) for (const [key, value] of Object.entries(table)) merged.set(key, value);
  return {
    locale,
    has: (key) => merged.has(key),
    render(key, placeholders = {}, options = {}) {
      let template = merged.get(key);
      if (template === undefined) return key;
      for (const name of options.optional ?? []) {
        if (placeholders[name] === '') template = withoutClauseOf(template, name);
      }
      return template.replace(PLACEHOLDER, (whole, name: string) =>
        Object.hasOwn(placeholders, name) ? String(placeholders[name]) : whole,
      );
    },
  };
}

/**
 * English messages from the server owner's table, falling back to the bundled defaults for
 * missing keys.
 */
export function createMessages(table: MessageTable, defaults: MessageTable = {}): Messages {
  return layeredMessages([table, defaults], 'en');
}
