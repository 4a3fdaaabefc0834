import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { stopPostgresServer } from '../test/support/postgres-server.js';
import type { BenchResult } from './result.js';
import { loginStorms } from './support/login-storms.js';
import { startPostgresNetworkFixture } from './support/postgres-network-fixture.js';

/**
 * The login storms of service-login-storm on PostgreSQL (`--database-url`), the network fixture
 * copied in: figures only, the design sets no target for them. The database server starts from
 * the cached fixture just before the service, so the restart's storm meets both cold.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-pg-storm-'));
  try {
    const fixture = await startPostgresNetworkFixture(NETWORK_AT_SCALE, dir, Date.now());
    try {
      return await loginStorms({
        database: fixture.url,
        facts: fixture.facts,
        label: 'PostgreSQL',
        withTargets: false,
      });
    } finally {
      await stopPostgresServer(fixture.server);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
