const KEY = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$/;
const KEY_PREFIX = /^[a-z][a-z0-9-]*(\.[a-z0-9-]+)*\.$/;

/** What the plugin's sources say about message keys. */
export interface KeysInSource {
  /** Whole keys written as strings: `'ban.screen'`. */
  keys: Set<string>;
  /** Starts of keys completed at run time: `commands.uuid-source.` of `` `commands.uuid-source.${source}` ``. */
  prefixes: Set<string>;
  /** First segments of the keys passed literally to `render(...)`. */
  renderedNamespaces: Set<string>;
}

/** Comments name keys in prose, where an apostrophe would pair with a quote of the code. */
function withoutCommentLines(source: string): string {
  return source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
}

/**
 * Message keys found statically in TypeScript `sources`. Every string literal shaped like a
 * dotted key is a candidate (keys are often chosen in one place and rendered in another); the
 * caller keeps those of a message namespace.
 */
export function keysInSources(sources: readonly string[]): KeysInSource {
  const found: KeysInSource = { keys: new Set(), prefixes: new Set(), renderedNamespaces: new Set() };
  for (const source of sources.map(withoutCommentLines)) {
    for (const match of source.matchAll(/'([^'\n]*)'|"([^"\n]*)"|`([^`]*)`/g)) {
      const text = match[1] ?? match[2] ?? match[3] ?? '';
      const templatePrefix = match[3] !== undefined ? text.split('${')[0]! : undefined;
      if (templatePrefix !== undefined && templatePrefix !== text) {
        if (KEY_PREFIX.test(templatePrefix)) found.prefixes.add(templatePrefix);
      } else if (KEY.test(text)) {
        found.keys.add(text);
      }
    }
    for (const match of source.matchAll(/render\(\s*['"`]([a-z][a-z0-9-]*)\./g))
      found.renderedNamespaces.add(match[1]!);
  }
  return found;
}

/** Keys (and key prefixes) of a message namespace that `table` lacks. */
export function missingKeys(found: KeysInSource, table: Readonly<Record<string, string>>): string[] {
  const namespaces = new Set([...found.renderedNamespaces, ...Object.keys(table).map((key) => key.split('.')[0]!)]);
  const inNamespace = (key: string) => namespaces.has(key.split('.')[0]!);
  const known = Object.keys(table);
  return [
    ...[...found.keys].filter((key) => inNamespace(key) && !Object.hasOwn(table, key)),
    ...[...found.prefixes].filter((prefix) => inNamespace(prefix) && !known.some((key) => key.startsWith(prefix))),
  ].sort();
}
