import { type Clock, systemClock } from '../../ports/clock.js';
import { createServiceStorage } from '../store/create-storage.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { SUPERUSER_ROLE } from './permissions.js';

export interface FirstAdmin {
  /** The service's SQLite file; or give `databaseUrl`. */
  dbPath?: string;
  /** The service's PostgreSQL database (`postgres://...`), instead of `dbPath`. */
  databaseUrl?: string;
  /** The network the admin works in; undefined makes a superuser of every network. */
  network: string | undefined;
  username: string;
  password: string;
  clock?: Clock;
}

/** A reason the admin could not be made, for the person at the command line. */
export class CreateAdminError extends Error {
  override readonly name = 'CreateAdminError';
}

export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * `bailiff service create-admin`: an admin account in the service's database, SQLite or PostgreSQL
 * (the service may be running), recorded in the audit log. Networks are never made here: a mistyped
 * name is an error.
 */
export async function createAdmin(admin: FirstAdmin): Promise<{ accountId: number; networkIds: number[] }> {
  if (!USERNAME_PATTERN.test(admin.username)) {
    throw new CreateAdminError('--user: 1 to 64 letters, digits, dots, dashes or underscores');
  }
  const problem = passwordProblem(admin.password);
  if (problem) throw new CreateAdminError(`password: ${problem}`);
  const clock = admin.clock ?? systemClock;
  if ((admin.dbPath === undefined) === (admin.databaseUrl === undefined)) {
    throw new CreateAdminError(
      'give the database: a SQLite file (--db) or a PostgreSQL URL (--database-url), one of them',
    );
  }
  const storage = await createServiceStorage({
    dbPath: admin.dbPath ?? ':memory:',
    ...(admin.databaseUrl === undefined ? {} : { databaseUrl: admin.databaseUrl }),
  });
  try {
    const { stores } = storage;
    const networks = await stores.networks.listNetworks();
    let networkIds: number[];
    if (admin.network === undefined) {
      networkIds = networks.map((network) => network.id);
    } else {
      const networkId = await stores.networks.findNetwork(admin.network);
      if (networkId === undefined) {
        const known =
          networks.map((network) => network.name).join(', ') ||
          'none yet (add one with `bailiff service network add --name NAME`)';
        throw new CreateAdminError(`--network: no network named '${admin.network}'; networks: ${known}`);
      }
      networkIds = [networkId];
    }
    const nowMs = clock.now();
    const accountId = await stores.panelAccounts.create({
      networkId: admin.network === undefined ? null : networkIds[0]!,
      username: admin.username,
      passwordHash: await hashPassword(admin.password),
      role: SUPERUSER_ROLE,
      nowMs,
    });
    if (accountId === undefined) throw new CreateAdminError(`--user: an account named '${admin.username}' exists`);
    for (const networkId of networkIds) {
      await stores.auditLog.record({
        networkId,
        actor: 'command line',
        via: 'admin',
        action: 'account.create',
        subject: admin.username,
        detail: { role: SUPERUSER_ROLE, allNetworks: admin.network === undefined },
        atMs: nowMs,
      });
    }
    return { accountId, networkIds };
  } finally {
    await storage.close();
  }
}
