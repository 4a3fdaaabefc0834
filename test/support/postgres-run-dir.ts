import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgresServer } from './postgres-server.js';

/**
 * The files through which the test files of one run share a PostgreSQL: `lock` (a directory, made
 * by the one file that starts the server), then `server.json` when it runs or `failure.txt` when
 * it could not start, so every file fails with the same reason.
 */
export const runDirFiles = (runDir: string) => ({
  lock: join(runDir, 'lock'),
  server: join(runDir, 'server.json'),
  failure: join(runDir, 'failure.txt'),
});

export function readSharedServer(runDir: string): PostgresServer | undefined {
  const file = runDirFiles(runDir).server;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PostgresServer) : undefined;
}

export function readSharedFailure(runDir: string): string | undefined {
  const file = runDirFiles(runDir).failure;
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/** Written whole then renamed, so a reader never sees half a file. */
export function writeRunDirFile(path: string, text: string): void {
  writeFileSync(`${path}.part`, text);
  renameSync(`${path}.part`, path);
}
