import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase, testPool } from '../support/postgres.js';
import { type ServiceCliProcess, startServiceCli } from './helpers/service-cli.js';

const METRICS_TOKEN = 'metrics-token-for-the-tests-0123';
let database: TestDatabase;
let service: ServiceCliProcess;
let admin: ReturnType<typeof testPool>;

beforeAll(async () => {
  database = await createTestDatabase();
  const adminUrl = new URL(database.url);
  adminUrl.pathname = '/postgres';
  admin = testPool(adminUrl.toString());
  service = await startServiceCli(['--port', '0'], {
    BAILIFF_DATABASE_URL: database.url,
    BAILIFF_METRICS_TOKEN: METRICS_TOKEN,
  });
});
afterAll(async () => {
  await service?.kill();
  await admin?.query(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`).catch(() => {});
  await admin?.end();
  await database?.drop();
});

async function readyz() {
  const answer = await fetch(`${service.url}/readyz`);
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** Asks /readyz until it gives `status` (a pool notices a lost database on its next statement); at most 20 s. */
async function readyzUntil(status: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await readyz();
    if (answer.status === status || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('/readyz of a service process on PostgreSQL', () => {
  it('reports its pool in /metrics: connections by state, and how long statements waited for one', async () => {
    for (let n = 0; n < 5; n += 1) await readyz();
    const answer = await fetch(`${service.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await answer.text();
    const value = (series: string) =>
      Number(
        text
          .split('\n')
          .find((line) => line.startsWith(`${series} `))
          ?.slice(series.length + 1),
      );
    expect(
      value('bailiff_db_connections{state="idle"}') + value('bailiff_db_connections{state="in_use"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('bailiff_db_connections{state="waiting"}');
    expect(
      value('bailiff_db_connections{state="idle"}') + value('bailiff_db_connections{state="in_use"}'),
    ).toBeLessThanOrEqual(10);
    // Each /readyz asked the pool for a connection; so did the start.
    expect(value('bailiff_db_wait_seconds_count')).toBeGreaterThanOrEqual(5);
    expect(value('bailiff_http_requests_total{route="/readyz",method="GET",status="200"}')).toBe(5);
  });

  it('is 200 while the database answers and its schema is the one this Bailiff knows', async () => {
    expect(await readyz()).toEqual({
      status: 200,
      body: { status: 'ready', database: 'reachable', schema: 'current', draining: false },
    });
  });

  it('is 503 while the database cannot be reached (healthz stays 200), and 200 again once it is back', async () => {
    await admin.query(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database.name]);
    const down = await readyzUntil(503);
    expect(down).toEqual({
      status: 503,
      body: {
        status: 503,
        success: false,
        error: 'Service Unavailable',
        message: 'not ready: the database cannot be reached',
        database: 'unreachable',
        schema: 'unknown',
        draining: false,
      },
    });
    expect(JSON.stringify(down.body)).not.toContain('127.0.0.1');
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    expect(service.stderr()).toContain('not ready');

    await admin.query(`ALTER DATABASE ${database.name} ALLOW_CONNECTIONS true`);
    expect((await readyzUntil(200)).status).toBe(200);
  });

  it('is 503 when a newer Bailiff added schema steps this one does not know', async () => {
    const pool = testPool(database.url);
    try {
      await pool.query("INSERT INTO service_schema_migrations (version, name) VALUES (99999, 'from the future')");
      const ahead = await readyz();
      expect(ahead.status).toBe(503);
      expect(ahead.body).toMatchObject({ database: 'reachable', schema: 'ahead' });
      expect(ahead.body.message).toContain('a newer version upgraded it');
      await pool.query('DELETE FROM service_schema_migrations WHERE version = 99999');
      expect((await readyz()).status).toBe(200);
    } finally {
      await pool.end();
    }
  });
});
