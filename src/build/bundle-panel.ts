import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * `npm run build`'s panel step: the client scripts of src/panel-client/ bundled (chart.js
 * included, nothing from a CDN) with the stylesheet into dist/panel-assets/, served under
 * /panel/assets/; the eta templates copied beside the compiled panel code, where it reads them.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const clientDir = join(root, 'src', 'panel-client');
const assetsOut = join(root, 'dist', 'panel-assets');
const viewsIn = join(root, 'src', 'service', 'panel', 'views');
const viewsOut = join(root, 'dist', 'src', 'service', 'panel', 'views');

async function bundlePanel(): Promise<void> {
  rmSync(assetsOut, { recursive: true, force: true });
  mkdirSync(assetsOut, { recursive: true });
  const entries = readdirSync(clientDir)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => join(clientDir, name));
  await build({
    entryPoints: entries,
    outdir: assetsOut,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome100', 'firefox100', 'safari15'],
    logLevel: 'warning',
    legalComments: 'none',
  });
  for (const name of readdirSync(clientDir).filter((file) => file.endsWith('.css'))) {
    cpSync(join(clientDir, name), join(assetsOut, name));
  }
  rmSync(viewsOut, { recursive: true, force: true });
  if (existsSync(viewsIn)) cpSync(viewsIn, viewsOut, { recursive: true });
}

await bundlePanel();
