import { z } from 'zod';

/** The schema under defaults, optionals and transforms: what a config file's value is checked against. */
function unwrap(schema: z.ZodType): z.ZodType {
  if (
    schema instanceof z.ZodDefault ||
    schema instanceof z.ZodPrefault ||
    schema instanceof z.ZodOptional ||
    schema instanceof z.ZodNullable
  ) {
    return unwrap(schema.def.innerType as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return unwrap(schema.def.in as z.ZodType);
  return schema;
}

/**
 * Every key a config file can set, dotted (`sync.pollIntervalMs`): the leaves of nested objects.
 * A record (a map of free keys such as ordinals) is one key.
 */
export function dottedKeys(schema: z.ZodType, prefix = ''): string[] {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return prefix === '' ? [] : [prefix];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, child]) =>
    dottedKeys(child, prefix === '' ? key : `${prefix}.${key}`),
  );
}
