import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningService, startService } from '../../src/service/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, NETWORK } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const PROBE_KEY = 'e2e-probe-key-0123456789ab';
const RATE_LIMIT_PER_MINUTE = 40;

/** One instance of the service on the shared database: the same network, keys and settings as the other. */
function startInstance(databaseUrl: string): Promise<RunningService> {
  return startService({
    host: '127.0.0.1',
    port: 0,
    databaseUrl,
    rateLimitPerMinute: RATE_LIMIT_PER_MINUTE,
    seed: {
      networks: [
        {
          name: NETWORK,
          servers: [
            { name: 'game-1', apiKey: API_KEY },
            { name: 'probe', apiKey: PROBE_KEY },
          ],
          players: [{ uuid: offlineUuid('Target'), name: 'Target' }],
          punishments: [],
        },
      ],
    },
  });
}

function createBan(service: RunningService, reason: string, idempotencyKey?: string) {
  return fetch(`${service.url}/v1/minecraft/punishments/dynamic`, {
    method: 'POST',
    headers: {
      'x-api-key': API_KEY,
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': `"${idempotencyKey}"` } : {}),
    },
    body: JSON.stringify({ targetUuid: offlineUuid('Target'), typeOrdinal: 2, issuerName: 'Panel', reason }),
  });
}

/**
 * Issue 22: two service instances on one PostgreSQL behave as one service. The game server's
 * Bailiff talks to instance B only (its stream included); everything is written through A.
 */
describe('two service instances on one PostgreSQL', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-two-instances-'));
  let database: TestDatabase;
  let pool: pg.Pool;
  let a: RunningService;
  let b: RunningService;
  let game: RunningGameServer;
  let target: TestBot | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    a = await startInstance(database.url);
    b = await startInstance(database.url);
    const serverDir = join(dir, 'server');
    // Polling is left far behind: a ban that arrives within the test came over B's stream.
    writeTestServerFolder(serverDir, { sync: { stream: 'auto', pollIntervalMs: 600_000 } });
    game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: b.url, BAILIFF_API_KEY: API_KEY });
    await waitFor('the stream to B to connect', () => game.output().includes('"state":"connected"'), 30_000);
    target = await mustJoin(game.port, 'Target');
  });

  afterAll(async () => {
    await target?.quit().catch(() => {});
    await game?.stop();
    await b?.close();
    await a?.close();
    await pool?.end();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('kicks a player when a ban is created through A while the game server’s stream is held by B', async () => {
    const created = await createBan(a, 'banned through instance A');
    expect(created.status).toBe(200);
    await waitFor(
      'Target to be kicked by the ban pushed on B’s stream',
      () => target!.kickedWith?.includes('banned through instance A'),
      20_000,
    );
  });

  it('creates one punishment for one Idempotency-Key sent to A and then to B', async () => {
    const first = await createBan(a, 'one ban, two instances', 'two-instances-key-1');
    const again = await createBan(b, 'one ban, two instances', 'two-instances-key-1');
    expect([first.status, again.status]).toEqual([200, 200]);
    const [firstBody, againBody] = (await Promise.all([first.json(), again.json()])) as Array<{
      id?: string;
      punishment?: { id: string };
    }>;
    expect(againBody).toEqual(firstBody);
    const rows = await pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM service_punishments WHERE reason = 'one ban, two instances'",
    );
    expect(rows.rows).toEqual([{ n: 1 }]);
  });

  it('refuses on B a key whose rate limit was spent through A', async () => {
    const lookup = (service: RunningService) =>
      fetch(`${service.url}/v1/minecraft/tickets/player/${offlineUuid('Target')}`, {
        headers: { 'x-api-key': PROBE_KEY },
      });
    let allowedThroughA = 0;
    for (let n = 0; n < RATE_LIMIT_PER_MINUTE * 2; n += 1) {
      const response = await lookup(a);
      if (response.status === 429) break;
      expect(response.status).toBe(200);
      allowedThroughA += 1;
    }
    // A minute's allowance, give or take what refilled while the loop ran.
    expect(allowedThroughA).toBeGreaterThanOrEqual(RATE_LIMIT_PER_MINUTE);
    expect(allowedThroughA).toBeLessThan(RATE_LIMIT_PER_MINUTE + 5);
    const onB = await lookup(b);
    expect(onB.status).toBe(429);
    expect(Number(onB.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
