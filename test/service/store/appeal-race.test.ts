import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openPostgresStorage } from '../../../src/service/store/open-storage.js';
import type { NewAppeal } from '../../../src/service/store/ports/appeals.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { newAppealTicketFixture, newPunishment } from '../store-conformance/fixtures.js';

const WAIT_FOR_LOCK_MS = 20_000;

const appeal = (networkId: number, ticketId: string): NewAppeal => ({
  networkId,
  punishmentId: 'p1',
  playerName: 'Notch',
  token: `link-${ticketId}`,
  ticket: newAppealTicketFixture(ticketId, 1_000, { subject: 'Appeal' }),
});

/** Resolves once some statement of the database waits for a lock another transaction holds. */
async function someoneWaitsForALock(storage: KyselyStorage): Promise<void> {
  const deadline = Date.now() + WAIT_FOR_LOCK_MS;
  while (Date.now() < deadline) {
    const waiting = await sql<{ count: number }>`SELECT count(*) AS count FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(storage.db);
    if (waiting.rows[0]!.count > 0) return;
    await new Promise((tick) => setTimeout(tick, 20));
  }
  throw new Error(`no statement waited for a lock within ${WAIT_FOR_LOCK_MS} ms`);
}

/**
 * Two instances opening an appeal of one punishment at once (PostgreSQL; SQLite has one writer):
 * the second waits for the first to commit and then finds its appeal open, instead of failing on
 * the index of open appeals.
 */
describe('appeals opened by two instances at once', () => {
  let database: TestDatabase;
  let first: KyselyStorage;
  let second: KyselyStorage;
  beforeAll(async () => {
    database = await createTestDatabase();
    first = await openPostgresStorage(database.url);
    second = await openPostgresStorage(database.url);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
  });

  it('the later opener waits for the earlier one and is told an appeal is open, storing nothing', async () => {
    const { id: network } = await first.db
      .insertInto('service_networks')
      .values({ name: 'alpha' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await first.stores.punishments.insert(newPunishment(network, 'p1'));

    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened!: () => void;
    const firstOpened = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const earlier = first.transaction(async (stores) => {
      const done = await stores.appeals.open(appeal(network, 'a1'));
      opened();
      await held;
      return done;
    });
    await firstOpened;
    const later = second.stores.appeals.open(appeal(network, 'a2'));
    await someoneWaitsForALock(first);
    release();

    expect(await earlier).toBe(true);
    expect(await later).toBe(false);
    expect(await second.stores.appeals.openAppealOf(network, 'p1')).toBe('a1');
    expect(await second.stores.tickets.exists(network, 'a2')).toBe(false);
  });
});
