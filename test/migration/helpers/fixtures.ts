import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp folder per test file; `cleanup` removes it. */
export async function makeTempDir(
  prefix = 'bailiff-migration-test-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Deterministic UUID number `n` (version-4 shaped). */
export function uuidOf(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** Vanilla's date format: `2024-01-31 12:00:00 +0000`. */
export function vanillaDate(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000`;
}

export interface VanillaEntry {
  uuid?: unknown;
  name?: unknown;
  created?: unknown;
  source?: unknown;
  expires?: unknown;
  reason?: unknown;
  [unknownField: string]: unknown;
}

export function vanillaEntry(n: number, createdMs: number, overrides: VanillaEntry = {}): VanillaEntry {
  return {
    uuid: uuidOf(n),
    name: `player${n}`,
    created: vanillaDate(createdMs),
    source: 'Console',
    expires: 'forever',
    reason: `reason ${n}`,
    ...overrides,
  };
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, JSON.stringify(value, null, 2));
}

export async function writeBannedPlayers(dir: string, content: unknown): Promise<void> {
  await (typeof content === 'string'
    ? writeFile(join(dir, 'banned-players.json'), content)
    : writeJson(join(dir, 'banned-players.json'), content));
}

export async function writeBannedIps(dir: string, ips: string[], createdMs: number): Promise<void> {
  const entries = ips.map((ip) => ({
    ip,
    created: vanillaDate(createdMs),
    source: 'Console',
    expires: 'forever',
    reason: 'x',
  }));
  await writeJson(join(dir, 'banned-ips.json'), entries);
}

/** Writes `plugins/Essentials/userdata/<name>.yml` under `serverDir` with a fixed mtime. */
export async function writeEssentialsUser(
  serverDir: string,
  fileName: string,
  yaml: string,
  savedAtMs: number,
): Promise<string> {
  const folder = join(serverDir, 'plugins', 'Essentials', 'userdata');
  await mkdir(folder, { recursive: true });
  const path = join(folder, fileName);
  await writeFile(path, yaml);
  await utimes(path, savedAtMs / 1000, savedAtMs / 1000);
  return path;
}
