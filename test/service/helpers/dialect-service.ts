import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ServiceOptions } from '../../../src/service/index.js';
import { hashPassword } from '../../../src/service/panel/passwords.js';
import { createTestDatabase } from '../../support/postgres.js';
import { startTestService, type TestService } from './fixture.js';
import { PanelClient } from './panel-client.js';

/** The test service on a SQLite file of its own or a PostgreSQL database of its own; `close()` removes either. */
export async function startTestServiceOn(
  dialect: 'sqlite' | 'postgres',
  tmpPrefix: string,
  options: ServiceOptions = {},
): Promise<TestService> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase();
    const t = await startTestService({ databaseUrl: database.url, ...options }).catch(async (error: unknown) => {
      await database.drop();
      throw error;
    });
    return {
      ...t,
      async close() {
        await t.close();
        await database.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), tmpPrefix));
  const t = await startTestService({ dbPath: join(dir, 'service.db'), ...options }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    ...t,
    async close() {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Panel accounts of `networkId`, all with `password`, and a client logged in as each, by username. */
export async function loggedInStaff(
  t: TestService,
  networkId: number,
  password: string,
  accounts: ReadonlyArray<readonly [username: string, role: string]>,
): Promise<Map<string, PanelClient>> {
  const passwordHash = await hashPassword(password);
  const clients = new Map<string, PanelClient>();
  for (const [username, role] of accounts) {
    await t.service.context.stores.panelAccounts.create({
      networkId,
      username,
      passwordHash,
      role,
      nowMs: t.clock.now(),
    });
    const client = new PanelClient(t.service.url);
    expect((await client.login(username, password)).status).toBe(303);
    clients.set(username, client);
  }
  return clients;
}
