import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningService, startService } from '../../src/service/index.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { runServiceCli } from './helpers/service-cli.js';

const KEY_LINE = /^[A-Za-z0-9_-]{43}$/m;
const dir = mkdtempSync(join(tmpdir(), 'bailiff-servers-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The `bailiff service network|server|key` commands, each its own process, change the database of a
 * running service: requests see each change at once (no key is cached), a stream of a removed
 * server closes, and the service's own requests meanwhile all succeed.
 */
describe.each(['sqlite', 'postgres'] as const)('server commands beside a running service on %s', (dialect) => {
  let database: TestDatabase | undefined;
  let service: RunningService;
  let cliDatabase: { args: string[]; env: NodeJS.ProcessEnv };

  beforeAll(async () => {
    if (dialect === 'postgres') {
      database = await createTestDatabase();
      cliDatabase = { args: [], env: { BAILIFF_DATABASE_URL: database.url } };
      service = await startService({ port: 0, databaseUrl: database.url, streamKeyCheckIntervalMs: 100 });
    } else {
      const dbPath = join(dir, 'service.db');
      cliDatabase = { args: ['--db', dbPath], env: {} };
      service = await startService({ port: 0, dbPath, streamKeyCheckIntervalMs: 100 });
    }
  });
  afterAll(async () => {
    await service?.close();
    await database?.drop();
  });

  const cli = (args: string[]) => runServiceCli([...args, ...cliDatabase.args], cliDatabase.env);
  const typesWith = (apiKey: string) =>
    fetch(`${service.url}/v1/minecraft/punishments/types`, { headers: { 'x-api-key': apiKey } });

  it('sees a server added, its key rotated and the server removed at the next request; its stream closes', async () => {
    expect((await cli(['network', 'add', '--name', 'main'])).code).toBe(0);
    const added = await cli(['server', 'add', '--network', 'main', '--name', 'survival']);
    const key = KEY_LINE.exec(added.stdout)![0];
    expect((await typesWith(key)).status).toBe(200);

    // The service keeps answering while the commands write (SQLite: the busy timeout; PostgreSQL: transactions).
    const load = (async () => {
      const statuses: number[] = [];
      for (let n = 0; n < 40; n += 1) statuses.push((await typesWith(key)).status);
      return statuses;
    })();
    const rotated = await cli(['key', 'rotate', '--network', 'main', '--server', 'survival', '--grace', '1h']);
    expect(rotated.code).toBe(0);
    const newKey = KEY_LINE.exec(rotated.stdout)![0];
    expect(await load).toEqual(Array(40).fill(200));
    expect((await typesWith(newKey)).status).toBe(200);

    const ws = new WebSocket(`${service.url.replace('http', 'ws')}/v1/minecraft/stream`, {
      headers: { 'x-api-key': newKey },
    });
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => {
      ws.once('message', resolve);
      ws.once('error', reject);
    });
    expect((await cli(['server', 'remove', '--network', 'main', '--name', 'survival'])).code).toBe(0);
    expect((await typesWith(newKey)).status).toBe(401);
    expect((await typesWith(key)).status).toBe(401);
    expect(await closed).toBe(1008);
  });
});
