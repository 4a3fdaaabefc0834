import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary folder with a helper to write files into it; remove() deletes it. */
export function tempDir(prefix = 'bailiff-runtime-'): {
  path: string;
  write(file: string, text: string): string;
  remove(): void;
} {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    write(file, text) {
      const target = join(path, file);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
      return target;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
