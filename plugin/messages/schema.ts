import { z } from 'zod';

/** messages.yml as flat dotted keys (`ban.screen`), every value a string. */
export type MessageTable = Readonly<Record<string, string>>;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value;
}

/**
 * A nested YAML mapping flattened to dotted keys. Every leaf must be a string; each other value
 * is an issue at its key path (expected a string, received its type), so nothing is half-read.
 */
export const messagesSchema: z.ZodType<MessageTable> = z.unknown().transform((raw, ctx) => {
  const table: Record<string, string> = {};
  if (raw === null || raw === undefined) return table;
  const walk = (node: unknown, path: string[]): void => {
    if (typeof node === 'string') {
      table[path.join('.')] = node;
      return;
    }
    if (node !== null && typeof node === 'object' && !Array.isArray(node)) {
      for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
      return;
    }
    ctx.addIssue({
      code: 'custom',
      path,
      message: path.length === 0 ? 'a mapping of message keys' : `a string (received ${describe(node)})`,
      input: node,
    });
  };
  walk(raw, []);
  return table;
});
