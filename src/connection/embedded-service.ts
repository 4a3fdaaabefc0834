import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { errorMessage } from '../errors/error-message.js';

/** File in the plugin's data folder where `bailiff start` records the embedded service it runs. */
export const EMBEDDED_SERVICE_FILE = 'embedded-service.json';

export const embeddedServiceSchema = z.strictObject({
  /** Base URL of the running embedded service; rewritten at every start (the port may change). */
  url: z.string(),
  apiKey: z.string().min(1),
  adminToken: z.string().min(1),
  network: z.string().min(1),
  platform: z.string().min(1),
});
export type EmbeddedService = z.infer<typeof embeddedServiceSchema>;

export function embeddedServicePath(dataFolder: string): string {
  return join(dataFolder, EMBEDDED_SERVICE_FILE);
}

/** The recorded embedded service, or undefined when the file does not exist. Throws when it is unreadable. */
export function readEmbeddedService(dataFolder: string): EmbeddedService | undefined {
  const file = embeddedServicePath(dataFolder);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON (${errorMessage(error)}): delete it and restart`);
  }
  const parsed = embeddedServiceSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(document)'}: ${issue?.message}`);
  }
  return parsed.data;
}

/** Written to a temporary file then renamed, so a crash never leaves half a file. Mode 0600: it holds a key. */
export function writeEmbeddedService(dataFolder: string, service: EmbeddedService): void {
  const file = embeddedServicePath(dataFolder);
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(service, null, 2)}\n`, { mode: 0o600 });
  // A temporary file left by a crash keeps its old mode: writeFileSync's mode applies to new files only.
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
