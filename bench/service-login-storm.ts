import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import type { BenchResult } from './result.js';
import { loginStorms } from './support/login-storms.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';

/**
 * Login storms at network size (1,000,000 punishments stored, 100,000 active, 20,000 players) on
 * SQLite: a restart's storm from the moment a fresh service is up, the same rate once it is warm,
 * and the most it answers (see support/login-storms.ts).
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-storm-'));
  try {
    const fixture = await networkFixtureCopy(NETWORK_AT_SCALE, dir, Date.now());
    return await loginStorms({ database: fixture.path, facts: fixture.facts, label: 'SQLite', withTargets: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
