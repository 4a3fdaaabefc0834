import { withoutClauseOf } from './optional-placeholder.js';
import type { MessageTable } from './schema.js';

export type Placeholders = Readonly<Record<string, string | number>>;

export interface MessageRenderer {
  render(key: string, placeholders?: Record<string, string | number>, options?: RenderOptions): string;
}

export interface Messages {
  /**
   * The message at `key` with `{name}` placeholders filled; unknown placeholders stay as typed.
   * `&` codes are kept: the receiver (sendMessage, kick) renders them.
   */
  render(key: string, placeholders?: Placeholders, options?: RenderOptions): string;
  has(key: string): boolean;
}

export interface RenderOptions {
  /**
   * Placeholders whose text is left out with the clause that shows them when their value is
   * empty: `Appeal at: {appealUrl}` disappears without an appeal URL. @default none
   */
  optional?: readonly string[];
}

const PLACEHOLDER = /\{([a-zA-Z0-9_.-]+)\}/g;

/**
 * Messages from the server owner's table, falling back to the bundled defaults for missing
 * keys; a key in neither renders as the key itself so a typo is visible, not fatal.
 */
export function createMessages(table: MessageTable, defaults: MessageTable = {}): Messages {
  const merged = new Map<string, string>([...Object.entries(defaults), ...Object.entries(table)]);
  return {
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
