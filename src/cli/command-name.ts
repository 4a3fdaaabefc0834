import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How the person reading a hint runs this command: `bailiff` once installed
 * (`npm install -g ./bailiff-X.Y.Z.tgz`), `npx bailiff` in a clone, whose package root holds the
 * sources' tsconfig.json (the installed package does not). `from`: where to look up from.
 */
export function commandName(from = dirname(fileURLToPath(import.meta.url))): string {
  let directory = from;
  for (let depth = 0; depth < 6; depth += 1) {
    if (existsSync(join(directory, 'package.json'))) {
      return existsSync(join(directory, 'tsconfig.json')) ? 'npx bailiff' : 'bailiff';
    }
    directory = dirname(directory);
  }
  return 'bailiff';
}
