import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const repositoryRoot = resolve(import.meta.dirname, '..', '..', '..');

const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.git', 'results']);

/** Paths (relative to the repository, `/`-separated) of the files under `folder` whose name ends with one of `extensions`. */
export function filesUnder(folder: string, extensions: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) walk(path);
      } else if (extensions.some((extension) => entry.name.endsWith(extension))) {
        found.push(relative(repositoryRoot, path).split('\\').join('/'));
      }
    }
  };
  walk(join(repositoryRoot, folder));
  return found.sort();
}

export function readRepositoryFile(path: string): string {
  return readFileSync(join(repositoryRoot, path), 'utf8');
}
