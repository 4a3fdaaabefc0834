import { z } from 'zod';

/**
 * Accepts other spellings of top-level keys, such as `online-mode` for `onlineMode`: each alias
 * is renamed to its key before `schema` validates. Giving both spellings is an error naming
 * them, since neither can be said to win.
 */
export function withKeyAliases<T extends z.ZodType>(schema: T, aliases: Readonly<Record<string, string>>) {
  return z.preprocess((raw, ctx) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const renamed: Record<string, unknown> = { ...raw };
    for (const [alias, key] of Object.entries(aliases)) {
      if (!Object.hasOwn(renamed, alias)) continue;
      if (Object.hasOwn(renamed, key)) {
        ctx.addIssue({
          code: 'custom',
          path: [alias],
          message: `${JSON.stringify(key)} or its other spelling ${JSON.stringify(alias)}, not both`,
        });
        continue;
      }
      renamed[key] = renamed[alias];
      delete renamed[alias];
    }
    return renamed;
  }, schema);
}
