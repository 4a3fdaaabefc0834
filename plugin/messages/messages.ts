import type { MessageTable } from './schema.js';

export type Placeholders = Readonly<Record<string, string | number>>;

export interface Messages {
  /**
   * The message at `key` with `{name}` placeholders filled; unknown placeholders stay as typed.
   * `&` codes are kept: the receiver (sendMessage, kick) renders them.
   */
  render(key: string, placeholders?: Placeholders): string;
  has(key: string): boolean;
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
    render(key, placeholders = {}) {
      const template = merged.get(key);
      if (template === undefined) return key;
      return template.replace(PLACEHOLDER, (whole, name: string) =>
        Object.hasOwn(placeholders, name) ? String(placeholders[name]) : whole,
      );
    },
  };
}
