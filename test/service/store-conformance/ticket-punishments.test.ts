import { describe, expect, it } from 'vitest';
import type { NewTicket } from '../../../src/service/store/ports/tickets.js';
import { BACKENDS, type ConformanceStores, useConformanceStorage } from './backends.js';
import { NOTCH, newPunishment, newTicketFixture, twoNetworks } from './fixtures.js';

function chatReport(id: string, createdAtMs: number): NewTicket {
  return newTicketFixture(id, createdAtMs, {
    type: 'chat',
    subject: 'spam',
    description: 'spamming links',
    createdServer: 'lobby',
  });
}

async function seed(stores: ConformanceStores) {
  const networks = await twoNetworks(stores);
  await stores.tickets.create(networks.alpha, chatReport('t1', 1_000));
  await stores.tickets.create(networks.alpha, chatReport('t2', 1_100));
  await stores.tickets.create(networks.beta, chatReport('t1', 1_000));
  await stores.punishments.insert(
    newPunishment(networks.alpha, 'p1', { typeOrdinal: 1, reason: 'spam', duration: 60_000 }),
  );
  await stores.punishments.insert(newPunishment(networks.alpha, 'p2', { reason: 'ads', createdAt: 2_000 }));
  await stores.punishments.insert(newPunishment(networks.beta, 'p1'));
  return networks;
}

describe.each(BACKENDS)('punishments linked to tickets on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('lists a ticket’s punishments oldest link first, and a player’s punishments’ tickets', async () => {
    const { tickets } = storage().stores;
    const { alpha, beta } = await seed(storage().stores);
    expect(await tickets.linkPunishment(alpha, 't1', 'p2', 5_000)).toBe(true);
    expect(await tickets.linkPunishment(alpha, 't1', 'p1', 4_000)).toBe(true);
    expect(await tickets.linkPunishment(alpha, 't2', 'p1', 4_500)).toBe(true);

    expect(await tickets.punishmentsOf(alpha, 't1')).toEqual([
      {
        id: 'p1',
        targetUuid: NOTCH,
        targetName: 'Notch',
        issuerName: 'mod',
        typeOrdinal: 1,
        status: 'active',
        reason: 'spam',
        durationMs: 60_000,
        createdAtMs: 1_000,
      },
      expect.objectContaining({ id: 'p2', reason: 'ads', typeOrdinal: 2, durationMs: -1, createdAtMs: 2_000 }),
    ]);
    expect(await tickets.punishmentsOf(beta, 't1')).toEqual([]);
    expect(await tickets.ticketsOfTarget(alpha, NOTCH.toUpperCase(), 10)).toEqual([
      { punishmentId: 'p1', ticketId: 't1', subject: 'spam' },
      { punishmentId: 'p1', ticketId: 't2', subject: 'spam' },
      { punishmentId: 'p2', ticketId: 't1', subject: 'spam' },
    ]);
    expect(await tickets.ticketsOfTarget(alpha, NOTCH, 1)).toHaveLength(1);
    expect(await tickets.ticketsOfTarget(beta, NOTCH, 10)).toEqual([]);
  });

  it('links once however often asked, and never to a ticket the network does not have', async () => {
    const { tickets } = storage().stores;
    const { alpha, beta } = await seed(storage().stores);
    expect(await tickets.linkPunishment(alpha, 't1', 'p1', 4_000)).toBe(true);
    expect(await tickets.linkPunishment(alpha, 't1', 'p1', 9_000)).toBe(true);
    expect(await tickets.linkPunishment(alpha, 'missing', 'p1', 4_000)).toBe(false);
    expect(await tickets.linkPunishment(beta, 't2', 'p1', 4_000)).toBe(false);
    expect((await tickets.punishmentsOf(alpha, 't1')).map((p) => p.id)).toEqual(['p1']);
    expect(await tickets.ticketsOfTarget(alpha, NOTCH, 10)).toEqual([
      { punishmentId: 'p1', ticketId: 't1', subject: 'spam' },
    ]);
  });

  it('links inside a transaction and leaves nothing when it rolls back', async () => {
    const { alpha } = await seed(storage().stores);
    await expect(
      storage().transaction(async (stores) => {
        await stores.tickets.linkPunishment(alpha, 't1', 'p1', 4_000);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await storage().stores.tickets.punishmentsOf(alpha, 't1')).toEqual([]);
  });
});
