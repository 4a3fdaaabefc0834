import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDb } from '../../../src/db/open-db.js';
import type { ServiceOptions } from '../../../src/service/index.js';
import { csrfTokenOf } from '../../../src/service/panel/csrf.js';
import { hashPassword } from '../../../src/service/panel/passwords.js';
import { SESSION_COOKIE } from '../../../src/service/panel/staff-session.js';
import type { ServiceStoresPorts as ServiceStores } from '../../../src/service/store/ports/stores.js';
import { startTestService, type TestService } from './fixture.js';
import { PanelClient } from './panel-client.js';

export const PASSWORD = 'correct horse battery';

export interface PanelTestService extends TestService {
  /** The running service's own stores, to arrange and check rows. */
  stores: ServiceStores;
  /** A second connection to the service's file, for what no store reads. */
  db: Db;
  /** The id of a network the service had at its start (alpha, beta). */
  networkId(name: string): number;
  /** An account with PASSWORD; `network` undefined makes a superuser. */
  addAccount(username: string, network: string | undefined, role: string): Promise<number>;
  /** A client logged in as `username` (from `fromAddress`, a 127.x.y.z, when given). */
  loggedIn(username: string, fromAddress?: string): Promise<PanelClient>;
  /** A client of the panel, sending from `fromAddress` (a 127.x.y.z) when given. */
  client(fromAddress?: string): PanelClient;
  /** A client holding a new session of `username` made in the database, without the login form. */
  sessionOf(username: string): Promise<PanelClient>;
}

/** The test service (networks alpha and beta) on a SQLite file, with helpers for panel accounts. */
export async function startPanelService(options: ServiceOptions = {}): Promise<PanelTestService> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-panel-'));
  const test = await startTestService({ dbPath: join(dir, 'service.db'), ...options });
  const db = openDb(join(dir, 'service.db'));
  const { stores } = test.service.context;
  const ids = new Map<string, number>();
  for (const name of ['alpha', 'beta']) {
    const id = await stores.networks.findNetwork(name);
    if (id !== undefined) ids.set(name, id);
  }
  const networkId = (name: string) => {
    const id = ids.get(name);
    if (id === undefined) throw new Error(`no network ${name} at the start of the test service`);
    return id;
  };
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
    async loggedIn(username, fromAddress) {
      const client = new PanelClient(test.service.url, fromAddress);
      const answer = await client.login(username, PASSWORD);
      if (answer.status !== 303) throw new Error(`login of ${username} answered ${answer.status}: ${answer.html}`);
      return client;
    },
    client: (fromAddress) => new PanelClient(test.service.url, fromAddress),
    async sessionOf(username) {
      const account = (await stores.panelAccounts.findByUsername(username))!;
      const sessionId = randomBytes(32).toString('base64url');
      await stores.panelSessions.create(createHash('sha256').update(sessionId).digest(), {
        accountId: account.id,
        networkId: account.networkId ?? networkId('alpha'),
        createdAt: test.clock.now(),
        expiresAt: test.clock.now() + 12 * 60 * 60 * 1000,
        stage: 'full',
      });
      const client = new PanelClient(test.service.url);
      client.setCookie(SESSION_COOKIE, sessionId);
      client.csrfToken = csrfTokenOf(sessionId);
      return client;
    },
    async close() {
      await test.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
