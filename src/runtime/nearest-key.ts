import type { z } from 'zod';

/** Case, `-` and `_` do not matter: `online-mode`, `online_mode` and `onlineMode` compare equal. */
function normalise(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known key an unknown one was most likely meant to be: same letters in another spelling
 * (`online-mode` -> `onlineMode`), or a typo of at most a third of its length (at least 2).
 * Undefined when nothing is that close.
 */
export function nearestKey(unknown: string, known: readonly string[]): string | undefined {
  const wanted = normalise(unknown);
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(wanted, normalise(key));
    if (distance <= limit && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** Unwraps optional, nullable, default, pipes and preprocessing down to the schema that checks values. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    const def = defOf(current);
    if (!def) return current;
    if ('innerType' in def) current = def.innerType;
    else if (def.type === 'pipe') current = defOf(def.in)?.type === 'transform' ? def.out : def.in;
    else if (def.type === 'lazy') current = (def.getter as () => unknown)();
    else return current;
  }
  return current;
}

/** Keys an object schema accepts at `path` (through lists and records); undefined when not an object there. */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  let current = unwrap(schema);
  for (const segment of path) {
    const def = defOf(current);
    if (def?.type === 'object') current = (def.shape as Record<string, unknown>)[String(segment)];
    else if (def?.type === 'array') current = def.element;
    else if (def?.type === 'record') current = def.valueType;
    else return undefined;
    current = unwrap(current);
  }
  const def = defOf(current);
  return def?.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : undefined;
}
