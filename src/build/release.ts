import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run release` (after `npm run build`): the two files a release is made of, in dist/release/.
 *
 * - `bailiff-X.Y.Z.tgz`: the service and the `bailiff` command, for `npm install -g`. It carries
 *   the built code, the plugin folder `bailiff start` installs, the panel's templates and assets,
 *   the default config files and plugin.yml, and its production dependencies (bundled, installed
 *   from package-lock.json with its overrides: the SerenityJS modules are pinned, and their
 *   LevelDB module, which the registry does not serve, is the stand-in in
 *   src/hosts/serenity/shims/leveldb). better-sqlite3 and @node-rs/argon2 are native and are not
 *   bundled: npm installs them for the machine it installs on.
 * - `Bailiff-X.Y.Z.tar.gz`: the plugin folder dist/plugins/Bailiff/, unpacked into a server's
 *   plugins/; `npm install --omit=dev` inside it fetches better-sqlite3 for that machine.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const releaseDir = join(root, 'dist', 'release');
const stage = join(releaseDir, 'package');
/** Native modules npm installs for the target machine rather than taking them from the bundle. */
const FETCHED_AT_INSTALL = ['better-sqlite3', '@node-rs/argon2'];
/** What the installed command reads, relative to the package root. */
const PACKAGE_FILES = ['dist/src', 'dist/plugin', 'dist/plugins/Bailiff', 'dist/panel-assets', 'config', 'plugin.yml'];

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  scripts?: Record<string, string>;
  dependencies: Record<string, string>;
  [key: string]: unknown;
}

/** npm as `npm run` started it (npm_execpath), so Windows needs no `npm.cmd`. */
function npm(args: string[], cwd: string): void {
  const npmCli = process.env.npm_execpath;
  const [command, commandArgs] = npmCli ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  execFileSync(command, commandArgs, { cwd, stdio: 'inherit' });
}

function copyBuilt(): void {
  for (const path of [...PACKAGE_FILES, 'README.md']) {
    const from = join(root, path);
    if (!existsSync(from)) throw new Error(`${path} is missing: run \`npm run build\` first`);
    // The build scripts run in the repository only; source maps point at sources not shipped.
    cpSync(from, join(stage, path), {
      recursive: true,
      filter: (source) => !source.endsWith('.map') && !source.includes(`${sep}dist${sep}src${sep}build`),
    });
  }
  const shim = join('src', 'hosts', 'serenity', 'shims', 'leveldb');
  cpSync(join(root, shim), join(stage, shim), { recursive: true });
  cpSync(join(root, 'package-lock.json'), join(stage, 'package-lock.json'));
}

function writeManifest(source: PackageJson): void {
  const { private: _private, scripts: _scripts, ...published } = source;
  const bundled = Object.keys(source.dependencies).filter((name) => !FETCHED_AT_INSTALL.includes(name));
  const manifest = { ...published, files: [...PACKAGE_FILES, 'src/hosts/serenity/shims'], bundleDependencies: bundled };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The production tree of package-lock.json; the LevelDB stand-in as a folder, not a link out of the package. */
function installProductionTree(): void {
  // No install scripts: the only production one is better-sqlite3's, and it is not bundled.
  npm(['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], stage);
  const linked = join(stage, 'node_modules', '@serenityjs', 'leveldb');
  rmSync(linked, { recursive: true, force: true });
  cpSync(join(stage, 'src', 'hosts', 'serenity', 'shims', 'leveldb'), linked, { recursive: true });
  rmSync(join(stage, 'package-lock.json'));
}

function release(): void {
  const source = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageJson;
  rmSync(releaseDir, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  copyBuilt();
  writeManifest(source);
  installProductionTree();
  npm(['pack', '--pack-destination', releaseDir, '--loglevel=warn'], stage);
  const pluginArchive = join(releaseDir, `Bailiff-${source.version}.tar.gz`);
  execFileSync('tar', ['-czf', pluginArchive, '-C', join(root, 'dist', 'plugins'), 'Bailiff'], { stdio: 'inherit' });
  rmSync(stage, { recursive: true, force: true });
  process.stdout.write(
    `release: ${join(releaseDir, `${source.name}-${source.version}.tgz`)}\nrelease: ${pluginArchive}\n`,
  );
}

release();
