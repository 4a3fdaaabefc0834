import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('punishment store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('inserts once: the same id again in the network changes nothing, in another network it is new', async () => {
    const { punishments, networks } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await punishments.insert(newPunishment(alpha, 'p1', { targetUuid: NOTCH.toUpperCase() }))).toBe(true);
    expect(await punishments.insert(newPunishment(alpha, 'p1', { reason: 'other' }))).toBe(false);
    expect(await punishments.insert(newPunishment(beta, 'p1'))).toBe(true);
    expect(await networks.findNetwork('alpha')).toBe(alpha);

    const row = await punishments.find(alpha, 'p1');
    expect(row).toMatchObject({
      network_id: alpha,
      id: 'p1',
      target_uuid: NOTCH,
      reason: 'griefing',
      duration: -1,
      status: 'active',
      created_at: 1_000,
      updated_at: 1_000,
      started_at: null,
      data: null,
      issuer_id: null,
    });
    expect(await punishments.find(alpha, 'missing')).toBeUndefined();
  });

  it('stores data, notes and tickets as JSON text and large epoch times exactly', async () => {
    const { punishments } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const createdAt = 8_000_000_000_000_000;
    await punishments.insert(
      newPunishment(alpha, 'p1', {
        data: { altBlocking: true },
        notes: ['first'],
        attachedTicketIds: ['t1'],
        severity: 'aggravated',
        issuerId: 'staff-1',
        duration: 86_400_000 * 365 * 100,
        createdAt,
        startedAt: createdAt + 5,
      }),
    );
    const row = await punishments.find(alpha, 'p1');
    expect(row).toMatchObject({
      data: '{"altBlocking":true}',
      notes: '["first"]',
      attached_ticket_ids: '["t1"]',
      severity: 'aggravated',
      issuer_id: 'staff-1',
      duration: 86_400_000 * 365 * 100,
      created_at: createdAt,
      started_at: createdAt + 5,
    });
  });

  it('pages recent punishments newest first, the last inserted first on a tie, from a time on', async () => {
    const { punishments } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    for (const [id, createdAt] of [
      ['a', 100],
      ['b', 200],
      ['c', 200],
      ['d', 300],
      ['e', 50],
    ] as const) {
      await punishments.insert(newPunishment(alpha, id, { createdAt }));
    }
    await punishments.insert(newPunishment(beta, 'other', { createdAt: 250 }));

    const ids = async (sinceMs: number, limit: number) =>
      (await punishments.recent(alpha, sinceMs, limit)).map((row) => row.id);
    expect(await ids(0, 10)).toEqual(['d', 'c', 'b', 'a', 'e']);
    expect(await ids(0, 2)).toEqual(['d', 'c']);
    expect(await ids(200, 10)).toEqual(['d', 'c', 'b']);
    expect(await ids(301, 10)).toEqual([]);
  });

  it("finds a player's active punishments (any case of the UUID) newest first, and only active ones", async () => {
    const { punishments } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'old', { createdAt: 100 }));
    await punishments.insert(newPunishment(alpha, 'new', { createdAt: 300, typeOrdinal: 1 }));
    await punishments.insert(newPunishment(alpha, 'lifted', { createdAt: 200 }));
    await punishments.insert(newPunishment(alpha, 'jeb', { targetUuid: JEB, createdAt: 150 }));
    await punishments.insert(newPunishment(beta, 'elsewhere', { createdAt: 400 }));
    expect(await punishments.setStatus(alpha, 'lifted', 'pardoned', 500)).toBe(true);

    expect((await punishments.activeFor(alpha, NOTCH.toUpperCase())).map((row) => row.id)).toEqual(['new', 'old']);
    expect((await punishments.active(alpha)).map((row) => row.id)).toEqual(['new', 'jeb', 'old']);
    expect(await punishments.activeFor(alpha, '00000000-0000-0000-0000-000000000000')).toEqual([]);
    const history = await punishments.historyOf(alpha, NOTCH);
    expect(history).toHaveLength(3);
    expect(history).toContainEqual({
      typeOrdinal: 2,
      severity: null,
      status: 'pardoned',
      duration: -1,
      createdAt: 200,
      startedAt: null,
    });
    await punishments.insert(newPunishment(alpha, 'alt', { createdAt: 250, data: { altBlocking: true } }));
    expect((await punishments.activeWithDataFor(alpha, NOTCH.toUpperCase())).map((row) => row.id)).toEqual(['alt']);
    expect((await punishments.activeFor(alpha, NOTCH)).map((row) => row.id)).toEqual(['new', 'alt', 'old']);
  });

  it('changes a status only when it differs, and sets the start only the first time', async () => {
    const { punishments } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'p1'));

    expect(await punishments.setStatus(alpha, 'p1', 'pardoned', 2_000)).toBe(true);
    expect(await punishments.setStatus(alpha, 'p1', 'pardoned', 3_000)).toBe(false);
    expect(await punishments.setStatus(alpha, 'missing', 'pardoned', 3_000)).toBe(false);
    expect(await punishments.find(alpha, 'p1')).toMatchObject({ status: 'pardoned', updated_at: 2_000 });

    expect(await punishments.markStarted(alpha, 'p1', 1_500, 4_000)).toBe(true);
    expect(await punishments.markStarted(alpha, 'p1', 1_700, 5_000)).toBe(false);
    expect(await punishments.find(alpha, 'p1')).toMatchObject({ started_at: 1_500, updated_at: 4_000 });
  });

  it('refuses a date no Date can hold before writing it', async () => {
    const { punishments } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await expect(punishments.insert(newPunishment(alpha, 'p1', { createdAt: 9e15 }))).rejects.toThrow(/createdAt/);
    expect(await punishments.find(alpha, 'p1')).toBeUndefined();
  });
});
