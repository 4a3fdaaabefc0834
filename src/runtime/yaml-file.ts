import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import { type FileIssue, FileValidationError, type RuntimeErrorCode } from './errors.js';
import { knownKeysAt, nearestKey } from './nearest-key.js';
import { yamlSyntaxIssue } from './yaml-syntax.js';

/** Short description of a value for error messages: its type, and the value when it is small. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'a mapping';
  const text = JSON.stringify(value);
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return `${typeof value} ${shown}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** `no key "onlinemode" (did you mean "onlineMode"?)`: the nearest key the schema knows there, if any is close. */
function unknownKeysText(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((key) => {
    const meant = nearestKey(key, known);
    return meant ? `${JSON.stringify(key)} (did you mean ${JSON.stringify(meant)}?)` : JSON.stringify(key);
  });
  return `no key ${named.join(', ')}`;
}

function expectedOf(issue: z.core.$ZodIssue, schema?: z.ZodType): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.expected;
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union': {
      const branches = issue.errors.map((branch) => (branch[0] ? expectedOf(branch[0]) : 'something else'));
      return [...new Set(branches)].join(' or ');
    }
    case 'unrecognized_keys':
      return unknownKeysText(issue.keys, (schema && knownKeysAt(schema, issue.path)) ?? []);
    default:
      return issue.message;
  }
}

/** `api.key`, `apiKey`, `adminToken`, `secret`, `password`: values never repeated in a message. */
const SECRET_KEY = /^(key|secret|password|token)$|(Key|Secret|Password|Token)$/;

function describeReceived(input: unknown, path: readonly PropertyKey[]): string {
  const value = valueAt(input, path);
  const last = path.at(-1);
  if (typeof last === 'string' && SECRET_KEY.test(last) && value !== undefined && value !== null) {
    return `${typeof value} (value hidden)`;
  }
  return describeValue(value);
}

/**
 * Turns zod issues into file issues naming the key, what was expected and what was found.
 * With the schema, an unknown key's issue suggests the nearest known key.
 */
export function issuesFromZod(error: z.ZodError, input: unknown, schema?: z.ZodType): FileIssue[] {
  return error.issues.map((issue) => ({
    key: issue.path.map(String).join('.'),
    expected: expectedOf(issue, schema),
    received: describeReceived(input, issue.path),
  }));
}

/** Parses YAML text; a syntax error becomes a FileValidationError naming the file and line. */
export function parseYamlText(text: string, file: string, what: string, code: RuntimeErrorCode): unknown {
  const document = parseDocument(text, { prettyErrors: false });
  const firstError = document.errors[0];
  if (firstError) throw new FileValidationError(code, what, file, [yamlSyntaxIssue(text, firstError)]);
  return document.toJS() ?? {};
}

/** Reads, parses and validates a YAML file. Every failure names the file. */
export function readYamlFile<T>(
  file: string,
  schema: z.ZodType<T>,
  what: string,
  code: RuntimeErrorCode,
  makeError: (file: string, issues: FileIssue[], cause?: unknown) => Error = (f, issues, cause) =>
    new FileValidationError(code, what, f, issues, cause),
): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    throw makeError(file, [{ key: '', expected: 'a readable file', received: (cause as Error).message }], cause);
  }
  let raw: unknown;
  try {
    raw = parseYamlText(text, file, what, code);
  } catch (error) {
    if (error instanceof FileValidationError) throw makeError(file, [...error.issues], error);
    throw error;
  }
  const result = schema.safeParse(raw);
  if (!result.success) throw makeError(file, issuesFromZod(result.error, raw, schema), result.error);
  return result.data;
}
