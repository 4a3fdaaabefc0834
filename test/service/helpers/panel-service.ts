import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDb } from '../../../src/db/open-db.js';
import type { ServiceOptions } from '../../../src/service/index.js';
import { hashPassword } from '../../../src/service/panel/passwords.js';
import {
  createSqliteStores as createStores,
  type SqliteStores as ServiceStores,
} from '../../../src/service/store/sqlite-stores.js';
import { startTestService, type TestService } from './fixture.js';
import { PanelClient } from './panel-client.js';

export const PASSWORD = 'correct horse battery';

export interface PanelTestService extends TestService {
  /** The stores on a second connection to the service's file, to arrange and check rows. */
  stores: ServiceStores;
  db: Db;
  networkId(name: string): number;
  /** An account with PASSWORD; `network` undefined makes a superuser. */
  addAccount(username: string, network: string | undefined, role: string): Promise<number>;
  /** A client logged in as `username`. */
  loggedIn(username: string): Promise<PanelClient>;
  client(): PanelClient;
}

/** The test service (networks alpha and beta) on a SQLite file, with helpers for panel accounts. */
export async function startPanelService(options: ServiceOptions = {}): Promise<PanelTestService> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-panel-'));
  const test = await startTestService({ dbPath: join(dir, 'service.db'), ...options });
  const db = openDb(join(dir, 'service.db'));
  const stores = createStores(db);
  const networkId = (name: string) => stores.networks.findNetwork(name)!;
  const passwordHash = await hashPassword(PASSWORD);
  return {
    ...test,
    stores,
    db,
    networkId,
    async addAccount(username, network, role) {
      const id = await stores.panelAccounts.create({
        networkId: network === undefined ? null : networkId(network),
        username,
        passwordHash,
        role,
        nowMs: test.clock.now(),
      });
      if (id === undefined) throw new Error(`account ${username} exists`);
      return id;
    },
    async loggedIn(username) {
      const client = new PanelClient(test.service.url);
      const answer = await client.login(username, PASSWORD);
      if (answer.status !== 303) throw new Error(`login of ${username} answered ${answer.status}: ${answer.html}`);
      return client;
    },
    client: () => new PanelClient(test.service.url),
    async close() {
      await test.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
