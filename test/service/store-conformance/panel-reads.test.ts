import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, twoNetworks } from './fixtures.js';

const DAY_MS = 86_400_000;

describe.each(BACKENDS)("the panel's dashboard counts and player lookup on %s", (backend) => {
  const storage = useConformanceStorage(backend);

  it('counts punishments per day and type in a range', async () => {
    const { punishments, dashboard } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const since = 10 * DAY_MS;
    const add = (id: string, createdAt: number, typeOrdinal: number) =>
      punishments.insert(newPunishment(alpha, id, { createdAt, typeOrdinal }));
    await add('before', since - 1, 2);
    await add('d0-ban-1', since, 2);
    await add('d0-ban-2', since + DAY_MS - 1, 2);
    await add('d0-mute', since + 5, 1);
    await add('d2-ban', since + 2 * DAY_MS, 2);
    await add('until', since + 3 * DAY_MS, 2);
    await punishments.insert(newPunishment(beta, 'elsewhere', { createdAt: since }));

    const counts = await dashboard.punishmentsPerDay(alpha, since, since + 3 * DAY_MS);
    const sorted = [...counts].sort((a, b) => a.day - b.day || a.typeOrdinal - b.typeOrdinal);
    expect(sorted).toEqual([
      { day: 0, typeOrdinal: 1, count: 1 },
      { day: 0, typeOrdinal: 2, count: 2 },
      { day: 2, typeOrdinal: 2, count: 1 },
    ]);
  });

  it("finds players by the start of their name in any case, and a player's whole history", async () => {
    const { players, punishments, enforcement, pardons, networks, playerLookup } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await players.recordLogin(alpha, { uuid: NOTCH, name: 'Notch', ip: undefined, server: 'lobby', at: 10 });
    await players.recordLogin(alpha, { uuid: JEB, name: 'notchling', ip: undefined, server: 'lobby', at: 20 });
    await players.save(alpha, '00000000-0000-4000-8000-000000000001', 'Dinnerbone');
    expect(await playerLookup.namesStartingWith(alpha, 'NOT', 10)).toEqual([
      { uuid: NOTCH, name: 'Notch', lastLoginAt: 10 },
      { uuid: JEB, name: 'notchling', lastLoginAt: 20 },
    ]);
    expect(await playerLookup.namesStartingWith(alpha, 'notc', 1)).toHaveLength(1);
    expect(await playerLookup.namesStartingWith(alpha, 'x', 10)).toEqual([]);

    const lobby = await networks.ensureServer(alpha, 'lobby', 'lobby-key-0123456789');
    await punishments.insert(newPunishment(alpha, 'old', { createdAt: 100 }));
    await punishments.insert(newPunishment(alpha, 'new', { createdAt: 200 }));
    await punishments.insert(newPunishment(alpha, 'jebs', { targetUuid: JEB, createdAt: 300 }));
    await punishments.setStatus(alpha, 'old', 'pardoned', 400);
    await pardons.record({
      networkId: alpha,
      punishmentId: 'old',
      issuerName: 'mod',
      reason: 'appeal',
      serverId: lobby,
      pardonedAt: 400,
    });
    const ack = { networkId: alpha, punishmentId: 'new', serverId: lobby, playerUuid: NOTCH, receivedAt: 500 };
    await enforcement.recordAcknowledgement({ ...ack, executedAt: 210, success: false, errorMessage: 'offline' });
    await enforcement.recordAcknowledgement({ ...ack, punishmentId: 'jebs', executedAt: 310, success: true });
    await enforcement.addEvidence(alpha, 'new', 'mod', 'https://example.org/e', 220);

    expect((await playerLookup.punishmentsOf(alpha, NOTCH.toUpperCase(), 10)).map((row) => row.id)).toEqual([
      'new',
      'old',
    ]);
    expect(await playerLookup.acknowledgementsOf(alpha, NOTCH, 10)).toEqual([
      { punishmentId: 'new', server: 'lobby', executedAt: 210, success: 0, errorMessage: 'offline' },
    ]);
    expect(await playerLookup.evidenceOf(alpha, NOTCH, 10)).toEqual([
      { punishmentId: 'new', issuerName: 'mod', evidenceUrl: 'https://example.org/e', createdAt: 220 },
    ]);
    expect(await playerLookup.pardonsOf(alpha, NOTCH, 10)).toEqual([
      { punishmentId: 'old', issuerName: 'mod', reason: 'appeal', pardonedAt: 400 },
    ]);
    expect(await playerLookup.pardonsOf(alpha, JEB, 10)).toEqual([]);
  });
});
