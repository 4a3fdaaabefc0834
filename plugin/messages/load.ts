import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type MessageTable, messagesSchema } from './schema.js';

/** Bundled default of messages.yml, relative to the plugin folder. */
export const BUNDLED_MESSAGES = 'config/messages.yml';

/** The bundled messages (the fallback for keys the server owner's file lacks). */
export function loadBundledMessages(pluginFolder: string): MessageTable {
  const file = join(pluginFolder, BUNDLED_MESSAGES);
  const parsed = messagesSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(document)'}: expected ${issue?.message}`);
  }
  return parsed.data;
}
