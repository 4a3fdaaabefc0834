import type { z } from 'zod';
import { badRequest } from './errors.js';

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = data;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    return text === '' ? String(key) : `${text}.${String(key)}`;
  }, '');
}

/** The first zod issue as `field: what is wrong`, the form every 400 of the service uses. */
export function describeIssue(issue: z.core.$ZodIssue, data: unknown, rootName: string): string {
  if (issue.code === 'unrecognized_keys') {
    const where = describePath([...issue.path, issue.keys[0] ?? '']);
    return `${where}: is not an accepted field`;
  }
  if (issue.code === 'invalid_union') {
    // The one alternative of the right shape that failed inside names the field (a chat line's `sentAt`).
    const inside = issue.errors.filter((errors) => errors.length > 0 && errors.every((error) => error.path.length > 0));
    const first = inside.length === 1 ? inside[0]![0] : undefined;
    if (first) return describeIssue({ ...first, path: [...issue.path, ...first.path] }, data, rootName);
  }
  const where = describePath(issue.path) || rootName;
  if (issue.code === 'invalid_type') {
    if (valueAt(data, issue.path) === undefined) return `${where}: is required`;
    return `${where}: must be ${issue.expected === 'array' || issue.expected === 'object' ? 'an' : 'a'} ${issue.expected}`;
  }
  if (issue.code === 'invalid_value') return `${where}: must be one of ${issue.values.map(String).join(', ')}`;
  return `${where}: ${issue.message}`;
}

/** Parses or throws a 400 naming the first offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, data: unknown, rootName = 'body'): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw badRequest(first ? describeIssue(first, data, rootName) : `${rootName}: invalid`);
}

/** Query strings arrive as text: integers are converted, anything else is left for the schema to reject. */
export function integerFromQuery(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}
