import { constants, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { withKeyAliases } from '../runtime/key-aliases.js';
import { readYamlFile } from '../runtime/yaml-file.js';

/** Settings of the game server: `config/server.yml`, overridden by `<serverDir>/server.yml`. */
export const serverSettingsSchema = z.strictObject({
  /** Which game server runs: java (flying-squid) or bedrock (SerenityJS). @default 'java' */
  edition: z.enum(['java', 'bedrock']),
  /** @default '0.0.0.0' */
  host: z.string().min(1),
  /** 0 picks a free port. @default 25565 */
  port: z.number().int().min(0).max(65535),
  /** @default '1.21.4' */
  version: z.string().regex(/^1\.\d+(\.\d+)?$/, 'a Minecraft version such as 1.21.4'),
  /** @default true */
  onlineMode: z.boolean(),
  motd: z.string(),
  /** @default 20 */
  maxPlayers: z.number().int().min(1),
  /** Relative to the server folder; null keeps the world in memory. @default 'world' */
  worldFolder: z.string().min(1).nullable(),
  /** `void` (an empty world) only on bedrock. @default 'diamond_square' */
  generation: z.enum(['superflat', 'diamond_square', 'void']),
  /** @default 6 */
  viewDistance: z.number().int().min(2).max(32),
  /** Names or UUIDs. @default [] */
  ops: z
    .array(z.string().min(1))
    .nullable()
    .transform((v) => v ?? []),
  /** @default 5000 */
  preLoginTimeoutMs: z.number().int().min(1),
});

export type ServerSettings = z.output<typeof serverSettingsSchema>;

/**
 * A game server for bots on this machine only: loopback, any free port, offline mode, a small
 * in-memory world. Used by the demo, the end-to-end tests and the benchmarks.
 */
export const LOOPBACK_TEST_SETTINGS = {
  host: '127.0.0.1',
  port: 0,
  onlineMode: false,
  worldFolder: null,
  generation: 'superflat',
  viewDistance: 2,
} as const satisfies Partial<ServerSettings>;

/** Finds `config/server.yml` of this package, from src/ (tests) or dist/src/ (built). */
export function bundledServerSettingsPath(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(directory, 'config', 'server.yml');
    if (existsSync(candidate)) return candidate;
    directory = dirname(directory);
  }
  throw new Error('config/server.yml was not found above the hosts module');
}

/** The spellings of flying-squid's settings and server.properties that owners paste in. */
export const SERVER_PROPERTIES_SPELLINGS: Readonly<Record<string, keyof ServerSettings>> = {
  'online-mode': 'onlineMode',
  'max-players': 'maxPlayers',
  'view-distance': 'viewDistance',
  'server-port': 'port',
  'server-ip': 'host',
};

const partialSettings = withKeyAliases(serverSettingsSchema.partial(), SERVER_PROPERTIES_SPELLINGS);

/**
 * Bundled defaults, then `<serverDir>/server.yml`, then `overrides`. Every file is validated:
 * errors name the file, the key, what was expected and what was found.
 */
export function loadServerSettings(serverDir: string, overrides: Partial<ServerSettings> = {}): ServerSettings {
  const defaults = readYamlFile(
    bundledServerSettingsPath(),
    serverSettingsSchema,
    'server settings',
    'BAILIFF_SERVER_SETTINGS',
  );
  const ownFile = join(serverDir, 'server.yml');
  const own = existsSync(ownFile)
    ? readYamlFile(ownFile, partialSettings, 'server settings', 'BAILIFF_SERVER_SETTINGS')
    : {};
  const merged = { ...defaults, ...own, ...overrides };
  return serverSettingsSchema.parse(merged);
}

/**
 * Gives a new server folder its own `server.yml`, a copy of the commented defaults, so the owner
 * has the file to edit. An existing file is never touched. Returns whether it was created.
 */
export function ensureServerSettingsFile(serverDir: string): boolean {
  const ownFile = join(serverDir, 'server.yml');
  if (existsSync(ownFile)) return false;
  mkdirSync(serverDir, { recursive: true });
  copyFileSync(bundledServerSettingsPath(), ownFile, constants.COPYFILE_EXCL);
  return true;
}

/** The world folder as an absolute path, or undefined for an in-memory world. */
export function worldFolderOf(settings: ServerSettings, serverDir: string): string | undefined {
  if (settings.worldFolder === null) return undefined;
  return isAbsolute(settings.worldFolder) ? settings.worldFolder : resolve(serverDir, settings.worldFolder);
}
