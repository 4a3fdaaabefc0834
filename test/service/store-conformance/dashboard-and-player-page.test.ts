import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../../src/service/store/ports/dashboard.js';
import type { NewTicket } from '../../../src/service/store/ports/tickets.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, newTicketFixture, twoNetworks } from './fixtures.js';

const SINCE = 10 * DAY_MS;

function newTicket(id: string, createdAtMs: number, overrides: Partial<NewTicket> = {}): NewTicket {
  return newTicketFixture(id, createdAtMs, { createdServer: 'lobby', ...overrides });
}

const byDayAndType = <Row extends { day: number; typeOrdinal?: number }>(rows: Row[]) =>
  [...rows].sort((a, b) => a.day - b.day || (a.typeOrdinal ?? 0) - (b.typeOrdinal ?? 0));

describe.each(BACKENDS)('dashboard and player page stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('counts punishments per day and type, and tickets per day, within [since, until) of one network', async () => {
    const { punishments, tickets, dashboard } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const at = [
      SINCE - 1,
      SINCE,
      SINCE + 5,
      SINCE + DAY_MS - 1,
      SINCE + DAY_MS,
      SINCE + 3 * DAY_MS,
      SINCE + 7 * DAY_MS,
    ];
    for (const [index, createdAt] of at.entries()) {
      await punishments.insert(newPunishment(alpha, `p${index}`, { createdAt, typeOrdinal: index % 2 === 0 ? 2 : 3 }));
      await tickets.create(alpha, newTicket(`t${index}`, createdAt));
    }
    await punishments.insert(newPunishment(beta, 'other', { createdAt: SINCE }));
    await tickets.create(beta, newTicket('other', SINCE));
    const until = SINCE + 7 * DAY_MS;

    expect(byDayAndType(await dashboard.punishmentsPerDay(alpha, SINCE, until))).toEqual([
      { day: 0, typeOrdinal: 2, count: 1 },
      { day: 0, typeOrdinal: 3, count: 2 },
      { day: 1, typeOrdinal: 2, count: 1 },
      { day: 3, typeOrdinal: 3, count: 1 },
    ]);
    expect(byDayAndType(await dashboard.ticketsPerDay(alpha, SINCE, until))).toEqual([
      { day: 0, count: 3 },
      { day: 1, count: 1 },
      { day: 3, count: 1 },
    ]);
    expect(await dashboard.ticketsPerDay(alpha, until + DAY_MS, until + 2 * DAY_MS)).toEqual([]);
  });

  it("lists a network's newest open tickets", async () => {
    const { tickets, dashboard } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await tickets.create(alpha, newTicket('old', 1_000));
    await tickets.create(alpha, newTicket('closed', 2_000));
    await tickets.create(alpha, newTicket('new', 3_000, { type: 'bug', priority: 'high', creatorName: 'Dinnerbone' }));
    await tickets.create(alpha, newTicket('middle', 2_500));
    await tickets.create(beta, newTicket('elsewhere', 4_000));
    await tickets.setStatus(alpha, 'closed', 'Closed', 5_000);

    expect(await dashboard.openTickets(alpha, 2)).toEqual([
      { id: 'new', type: 'bug', subject: 'subject new', priority: 'high', creatorName: 'Dinnerbone', createdAt: 3_000 },
      {
        id: 'middle',
        type: 'report',
        subject: 'subject middle',
        priority: 'normal',
        creatorName: 'jeb_',
        createdAt: 2_500,
      },
    ]);
    expect((await dashboard.openTickets(alpha, 10)).map((row) => row.id)).toEqual(['new', 'middle', 'old']);
  });

  it('finds players by the start of their name in any case, in name order, within one network', async () => {
    const { players, playerLookup } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const login = (networkId: number, uuid: string, name: string, at: number) =>
      players.recordLogin(networkId, { uuid, name, ip: undefined, server: 'lobby', at });
    await login(alpha, NOTCH, 'Notch', 1_000);
    await login(alpha, JEB, 'jeb_', 2_000);
    await login(alpha, '00000000-0000-0000-0000-000000000001', 'notch_fan', 3_000);
    await login(alpha, '00000000-0000-0000-0000-000000000002', 'NOTE_taker', 4_000);
    await login(alpha, '00000000-0000-0000-0000-000000000003', 'Nota', 5_000);
    await login(beta, '00000000-0000-0000-0000-000000000004', 'NotchToo', 6_000);
    await players.save(alpha, '00000000-0000-0000-0000-000000000005', 'notchless');

    expect(await playerLookup.namesStartingWith(alpha, 'NOTC', 10)).toEqual([
      { uuid: NOTCH, name: 'Notch', lastLoginAt: 1_000 },
      { uuid: '00000000-0000-0000-0000-000000000001', name: 'notch_fan', lastLoginAt: 3_000 },
      { uuid: '00000000-0000-0000-0000-000000000005', name: 'notchless', lastLoginAt: null },
    ]);
    expect((await playerLookup.namesStartingWith(alpha, 'not', 3)).map((row) => row.name)).toEqual([
      'Nota',
      'Notch',
      'notch_fan',
    ]);
    expect((await playerLookup.namesStartingWith(alpha, 'note_', 10)).map((row) => row.name)).toEqual(['NOTE_taker']);
    expect(await playerLookup.namesStartingWith(alpha, 'herobrine', 10)).toEqual([]);
  });

  it("reads a player's punishments newest first, and their acknowledgements, evidence and pardons", async () => {
    const { networks, punishments, enforcement, pardons, playerLookup } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const lobby = await networks.ensureServer(alpha, 'lobby', 'lobby-key-0123456789');
    const survival = await networks.ensureServer(alpha, 'survival', 'survival-key-0123456789');
    await punishments.insert(newPunishment(alpha, 'first', { createdAt: 1_000, reason: 'spam' }));
    await punishments.insert(newPunishment(alpha, 'second', { createdAt: 3_000, status: 'pardoned', typeOrdinal: 0 }));
    await punishments.insert(newPunishment(alpha, 'third', { createdAt: 2_000, status: 'expired', duration: 60_000 }));
    await punishments.insert(newPunishment(alpha, 'jebs', { createdAt: 4_000, targetUuid: JEB, targetName: 'jeb_' }));
    await punishments.insert(newPunishment(beta, 'first', { createdAt: 5_000 }));

    const history = await playerLookup.punishmentsOf(alpha, NOTCH.toUpperCase(), 10);
    expect(history.map((row) => row.id)).toEqual(['second', 'third', 'first']);
    expect(history[2]).toEqual(await punishments.find(alpha, 'first'));
    expect((await playerLookup.punishmentsOf(alpha, NOTCH, 2)).map((row) => row.id)).toEqual(['second', 'third']);

    const ack = { networkId: alpha, playerUuid: NOTCH, receivedAt: 9_000 };
    await enforcement.recordAcknowledgement({
      ...ack,
      punishmentId: 'third',
      serverId: lobby,
      executedAt: 2_100,
      success: true,
    });
    await enforcement.recordAcknowledgement({
      ...ack,
      punishmentId: 'first',
      serverId: survival,
      executedAt: 1_100,
      success: false,
      errorMessage: 'player offline',
    });
    await enforcement.recordAcknowledgement({
      ...ack,
      punishmentId: 'jebs',
      playerUuid: JEB,
      serverId: lobby,
      executedAt: 4_100,
      success: true,
    });
    expect(await playerLookup.acknowledgementsOf(alpha, NOTCH, 10)).toEqual([
      { punishmentId: 'third', server: 'lobby', executedAt: 2_100, success: 1, errorMessage: null },
      { punishmentId: 'first', server: 'survival', executedAt: 1_100, success: 0, errorMessage: 'player offline' },
    ]);
    expect(await playerLookup.acknowledgementsOf(alpha, NOTCH, 1)).toHaveLength(1);

    await enforcement.addEvidence(alpha, 'second', 'mod', 'https://example.org/b', 3_500);
    await enforcement.addEvidence(alpha, 'jebs', 'mod', 'https://example.org/jeb', 4_500);
    await enforcement.addEvidence(alpha, 'first', 'admin', 'https://example.org/a', 1_500);
    expect(await playerLookup.evidenceOf(alpha, NOTCH, 10)).toEqual([
      { punishmentId: 'second', issuerName: 'mod', evidenceUrl: 'https://example.org/b', createdAt: 3_500 },
      { punishmentId: 'first', issuerName: 'admin', evidenceUrl: 'https://example.org/a', createdAt: 1_500 },
    ]);

    const pardon = { networkId: alpha, issuerName: 'mod', reason: 'appeal accepted', serverId: lobby };
    await pardons.record({ ...pardon, punishmentId: 'second', pardonedAt: 6_000 });
    // A pardon of a punishment whose status says otherwise is not the player's pardon history.
    await pardons.record({ ...pardon, punishmentId: 'first', pardonedAt: 7_000 });
    expect(await playerLookup.pardonsOf(alpha, NOTCH, 10)).toEqual([
      { punishmentId: 'second', issuerName: 'mod', reason: 'appeal accepted', pardonedAt: 6_000 },
    ]);
    expect(await playerLookup.pardonsOf(beta, NOTCH, 10)).toEqual([]);
  });
});
