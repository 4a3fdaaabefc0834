import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('expiry and address retention stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('lists ended temporary punishments not yet announced, the earliest end first, across networks', async () => {
    const { punishments, expiries } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const temporary = (networkId: number, id: string, startedAt: number, duration: number) =>
      punishments.insert(newPunishment(networkId, id, { startedAt, duration, createdAt: startedAt }));
    await temporary(alpha, 'ends-at-300', 100, 200);
    await temporary(beta, 'ends-at-250', 50, 200);
    await temporary(alpha, 'ends-later', 100, 10_000);
    await temporary(alpha, 'lifted', 100, 50);
    await punishments.setStatus(alpha, 'lifted', 'pardoned', 120);
    await punishments.insert(newPunishment(alpha, 'permanent', { startedAt: 100, duration: -1 }));
    await punishments.insert(newPunishment(alpha, 'never-started', { duration: 10 }));

    expect((await expiries.endedUnannounced(1_000, 10)).map((row) => row.id)).toEqual(['ends-at-250', 'ends-at-300']);
    expect((await expiries.endedUnannounced(1_000, 1)).map((row) => row.id)).toEqual(['ends-at-250']);
    expect(await expiries.endedUnannounced(260, 10)).toHaveLength(1);

    await expiries.markAnnounced(beta, 'ends-at-250', 1_000);
    expect((await expiries.endedUnannounced(1_000, 10)).map((row) => row.id)).toEqual(['ends-at-300']);
    expect(await punishments.find(beta, 'ends-at-250')).toMatchObject({ expiry_announced_at: 1_000, status: 'active' });
  });

  it('deletes address history past retention in batches, then the last addresses no longer in it', async () => {
    const { players, playerIps, addressRetention } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await players.recordLogin(alpha, { uuid: NOTCH, name: 'Notch', ip: '203.0.113.7', server: 'lobby', at: 100 });
    await playerIps.record(alpha, NOTCH, '203.0.113.7', 100);
    await playerIps.record(alpha, NOTCH, '198.51.100.1', 150);
    await players.recordLogin(alpha, { uuid: JEB, name: 'jeb_', ip: '192.0.2.1', server: 'lobby', at: 900 });
    await playerIps.record(alpha, JEB, '192.0.2.1', 900);

    expect(await addressRetention.deleteHistoryBefore(500, 1)).toBe(1);
    expect(await addressRetention.deleteHistoryBefore(500, 10)).toBe(1);
    expect(await addressRetention.deleteHistoryBefore(500, 10)).toBe(0);
    expect(await playerIps.addressesOf(alpha, NOTCH, 0)).toEqual([]);
    expect(await playerIps.addressesOf(alpha, JEB, 0)).toHaveLength(1);

    expect(await addressRetention.clearForgottenLastAddresses(10)).toBe(1);
    expect((await players.find(alpha, NOTCH))?.lastIp).toBeNull();
    expect((await players.find(alpha, JEB))?.lastIp).toBe('192.0.2.1');
    expect(await addressRetention.clearForgottenLastAddresses(10)).toBe(0);
  });
});
