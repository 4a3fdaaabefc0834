import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The panel's eta templates: beside this file, in src/ when run from source and in dist/ once built. */
export const VIEWS_DIR = join(here, 'views');

/** The repository (or installed package) root: the nearest folder up from here holding package.json. */
function packageRoot(): string {
  let folder = here;
  for (let depth = 0; depth < 8; depth += 1) {
    if (existsSync(join(folder, 'package.json'))) return folder;
    folder = dirname(folder);
  }
  throw new Error(`panel: no package.json above ${here}`);
}

/** The client bundle and stylesheet `npm run build` writes (src/build/bundle-panel.ts). */
export const ASSETS_DIR = join(packageRoot(), 'dist', 'panel-assets');
