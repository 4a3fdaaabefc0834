import { join } from 'node:path';
import { z } from 'zod';
import { FileValidationError } from './errors.js';
import type { PluginDescriptor } from './plugin-api.js';
import { readYamlFile } from './yaml-file.js';

const nameList = z.array(z.string().min(1)).default([]);

const commandSpecSchema = z
  .object({
    description: z.string().optional(),
    usage: z.string().optional(),
    // Bukkit accepts a single alias as a plain string.
    aliases: z
      .union([z.string(), z.array(z.string().min(1))])
      .default([])
      .transform((value) => (typeof value === 'string' ? [value] : value)),
    permission: z.string().min(1).optional(),
  })
  .nullable()
  .transform((value) => value ?? { aliases: [] as string[] });

const permissionSpecSchema = z
  .object({
    description: z.string().optional(),
    default: z.union([z.boolean(), z.literal('op')]).default('op'),
  })
  .nullable()
  .transform((value) => value ?? { default: 'op' as const });

/** Schema of `plugin.yml`. Unknown keys are ignored so Bukkit-style files still load. */
export const pluginDescriptorSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'a name of letters, digits, _ . -'),
  // YAML reads `version: 1.0` as a number.
  version: z.union([z.string().min(1), z.number()]).transform(String),
  main: z.string().min(1),
  description: z.string().optional(),
  authors: nameList,
  depend: nameList,
  softdepend: nameList,
  commands: z
    .record(z.string(), commandSpecSchema)
    .nullable()
    .default({})
    .transform((v) => v ?? {}),
  permissions: z
    .record(z.string(), permissionSpecSchema)
    .nullable()
    .default({})
    .transform((v) => v ?? {}),
}) satisfies z.ZodType<PluginDescriptor, unknown>;

/** Reads and validates `<folder>/plugin.yml`. Throws a FileValidationError naming file, key and expectation. */
export function readPluginDescriptor(pluginFolder: string): PluginDescriptor {
  const file = join(pluginFolder, 'plugin.yml');
  return readYamlFile(file, pluginDescriptorSchema, 'plugin descriptor', 'BAILIFF_PLUGIN_DESCRIPTOR');
}

export { FileValidationError as PluginDescriptorError };
