import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { parse, stringify } from 'yaml';

/**
 * `npm run build`'s last step: Bailiff as a plugin folder, `dist/plugins/Bailiff/`, that any
 * runtime loads from `<server>/plugins/Bailiff/`, and that is also a drop-in for servers the
 * owner already has:
 *
 * - `plugin.yml`, `bailiff.mjs` (the plugin, bundled), `config/` (bundled defaults);
 * - `serenity.cjs`: a SerenityJS plugin (package.json `main`) running the runtime as a guest;
 * - `flying-squid.cjs`: a flying-squid external plugin doing the same;
 * - `sdk.mjs` (`bailiff/plugin`) and `module-hooks.mjs`, which the guests provide to plugins;
 * - `package.json`, whose one dependency is better-sqlite3: a native module cannot be bundled,
 *   so it is resolved from the folder upward (the server project's node_modules, or
 *   `npm install` in the folder), or from the runtime's own installation.
 *
 * Game servers (`@serenityjs/*`, flying-squid) are never bundled: a guest must use the very
 * modules of the server it runs in.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const out = join(root, 'dist', 'plugins', 'Bailiff');
const NATIVE = ['better-sqlite3'];

/** The plugin imports the runtime's API by path in the repository; in the bundle it is `bailiff/plugin`, as for any plugin. */
const pluginApiAsSdk: Plugin = {
  name: 'plugin-api-as-sdk',
  setup(context) {
    context.onResolve({ filter: /runtime\/plugin-api\.js$/ }, () => ({ path: 'bailiff/plugin', external: true }));
  },
};

const common: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as __bailiffRequire } from 'node:module'; const require = __bailiffRequire(import.meta.url);",
  },
};

/** CommonJS entries (loaded by require): import.meta.url is this file's URL. */
const commonJs: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  legalComments: 'none',
  define: { 'import.meta.url': '__bailiffModuleUrl' },
  banner: { js: "const __bailiffModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

async function bundle(): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    version: string;
    description: string;
    dependencies: Record<string, string>;
  };
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(root, 'plugin', 'index.ts')],
      outfile: join(out, 'bailiff.mjs'),
      format: 'esm',
      external: NATIVE,
      plugins: [pluginApiAsSdk],
    }),
    build({
      ...common,
      entryPoints: [join(root, 'src', 'sdk', 'plugin.ts')],
      outfile: join(out, 'sdk.mjs'),
      format: 'esm',
    }),
    build({
      ...common,
      entryPoints: [join(root, 'src', 'runtime', 'module-hooks.ts')],
      outfile: join(out, 'module-hooks.mjs'),
      format: 'esm',
    }),
    build({
      ...commonJs,
      entryPoints: [join(root, 'src', 'hosts', 'serenity', 'guest-plugin.ts')],
      outfile: join(out, 'serenity.cjs'),
      external: ['@serenityjs/*', ...NATIVE],
    }),
    build({
      ...commonJs,
      entryPoints: [join(root, 'src', 'hosts', 'flying-squid', 'guest-plugin.ts')],
      outfile: join(out, 'flying-squid.cjs'),
      external: ['flying-squid', 'exit-hook', ...NATIVE],
    }),
  ]);
  const descriptor = parse(readFileSync(join(root, 'plugin.yml'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(out, 'plugin.yml'), stringify({ ...descriptor, main: 'bailiff.mjs' }));
  cpSync(join(root, 'config', 'config.yml'), join(out, 'config', 'config.yml'));
  cpSync(join(root, 'config', 'messages.yml'), join(out, 'config', 'messages.yml'));
  for (const name of readdirSync(join(root, 'config')).filter((file) => /^messages\.[^.]+\.yml$/.test(file))) {
    cpSync(join(root, 'config', name), join(out, 'config', name));
  }
  const dependencies = Object.fromEntries(NATIVE.map((name) => [name, packageJson.dependencies[name]]));
  writeFileSync(
    join(out, 'package.json'),
    `${JSON.stringify(
      {
        name: 'bailiff',
        version: packageJson.version,
        description: packageJson.description,
        private: true,
        main: 'serenity.cjs',
        dependencies,
      },
      null,
      2,
    )}\n`,
  );
}

await bundle();
