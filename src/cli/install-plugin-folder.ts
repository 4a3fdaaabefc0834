import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files that make a built plugin folder what it is: when they match, the copy is current. */
const IDENTITY_FILES = ['plugin.yml', 'bailiff.mjs'];

function sameFile(a: string, b: string): boolean {
  return existsSync(a) && existsSync(b) && readFileSync(a).equals(readFileSync(b));
}

/**
 * Copies the built plugin folder (`dist/plugins/Bailiff/`) to `<serverDir>/plugins/Bailiff/`
 * when it is missing or differs from the build, so `bailiff start` always runs the Bailiff it
 * was built with, loaded like any other plugin. Files the folder has beyond the build (a
 * `node_modules/` from `npm install`) are kept. Returns whether anything was copied.
 */
export function installPluginFolder(builtFolder: string, serverDir: string): boolean {
  if (!existsSync(join(builtFolder, 'plugin.yml'))) {
    throw new Error(`${builtFolder} has no plugin.yml: run \`npm run build\` first`);
  }
  const target = join(serverDir, 'plugins', 'Bailiff');
  if (IDENTITY_FILES.every((file) => sameFile(join(builtFolder, file), join(target, file)))) return false;
  cpSync(builtFolder, target, { recursive: true, force: true });
  return true;
}
