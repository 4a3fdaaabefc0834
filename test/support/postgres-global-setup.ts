import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { readSharedServer } from './postgres-run-dir.js';
import { stopPostgresServer } from './postgres-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the run's shared PostgreSQL is described once a test file has started it (test/support/postgres.ts). */
    postgresRunDir: string;
  }
}

/**
 * Gives the run a directory for its PostgreSQL; no server starts here. The first test file that
 * asks for a database starts one (test/support/postgres.ts) and the others share it; teardown
 * stops it by its PID, so a run without such a file never starts PostgreSQL.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const runDir = mkdtempSync(join(tmpdir(), 'bailiff-pg-run-'));
  project.provide('postgresRunDir', runDir);
  return async () => {
    const server = readSharedServer(runDir);
    if (server) await stopPostgresServer(server);
    rmSync(runDir, { recursive: true, force: true });
  };
}
