import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repository = resolve(import.meta.dirname, '../../..');
const builtFolder = join(repository, 'dist', 'plugins', 'Bailiff');

/**
 * Makes `serverDir` look like an owner's server project with Bailiff dropped in: the built
 * plugin folder copied to `plugins/Bailiff/`, and the project's own `node_modules/` (the game
 * server and better-sqlite3, installed as docs/owners/running.md says), here a link to this repository's.
 */
export function dropBailiffInto(serverDir: string): void {
  if (!existsSync(join(builtFolder, 'plugin.yml'))) throw new Error(`${builtFolder} is missing: run \`npm run build\``);
  mkdirSync(join(serverDir, 'plugins'), { recursive: true });
  cpSync(builtFolder, join(serverDir, 'plugins', 'Bailiff'), { recursive: true });
  symlinkSync(join(repository, 'node_modules'), join(serverDir, 'node_modules'), 'dir');
}
