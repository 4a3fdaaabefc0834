import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { NOTCH, newPunishment, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('enforcement and pardon stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  async function bannedOnTwoServers() {
    const { networks, punishments } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const lobby = await networks.ensureServer(alpha, 'lobby', 'lobby-key-0123456789');
    const survival = await networks.ensureServer(alpha, 'survival', 'survival-key-0123456789');
    await punishments.insert(newPunishment(alpha, 'p1'));
    return { alpha, lobby, survival };
  }

  it('records an acknowledgement once per (server, time, outcome), in the order received', async () => {
    const { enforcement } = storage().stores;
    const { alpha, lobby, survival } = await bannedOnTwoServers();
    const ack = { networkId: alpha, punishmentId: 'p1', playerUuid: NOTCH.toUpperCase(), receivedAt: 5_000 };
    await enforcement.recordAcknowledgement({ ...ack, serverId: lobby, executedAt: 1_000, success: true });
    await enforcement.recordAcknowledgement({ ...ack, serverId: lobby, executedAt: 1_000, success: true });
    await enforcement.recordAcknowledgement({
      ...ack,
      serverId: survival,
      executedAt: 1_100,
      success: false,
      errorMessage: 'player offline',
    });

    expect(await enforcement.acknowledgements(alpha, 'p1')).toEqual([
      { executedAt: 1_000, success: true, errorMessage: null, server: 'lobby' },
      { executedAt: 1_100, success: false, errorMessage: 'player offline', server: 'survival' },
    ]);
    expect(await enforcement.acknowledgements(alpha, 'other')).toEqual([]);
  });

  it('keeps evidence in the order it was added', async () => {
    const { enforcement } = storage().stores;
    const { alpha } = await bannedOnTwoServers();
    await enforcement.addEvidence(alpha, 'p1', 'mod', 'https://example.org/2', 2_000);
    await enforcement.addEvidence(alpha, 'p1', 'admin', 'https://example.org/1', 1_000);
    expect(await enforcement.evidence(alpha, 'p1')).toEqual([
      { issuerName: 'mod', evidenceUrl: 'https://example.org/2', createdAt: 2_000 },
      { issuerName: 'admin', evidenceUrl: 'https://example.org/1', createdAt: 1_000 },
    ]);
  });

  it('keeps the first pardon of a punishment', async () => {
    const { pardons } = storage().stores;
    const { alpha, lobby, survival } = await bannedOnTwoServers();
    const pardon = { networkId: alpha, punishmentId: 'p1', issuerName: 'mod', reason: 'appeal accepted' };
    expect(await pardons.record({ ...pardon, serverId: lobby, pardonedAt: 3_000 })).toBe(true);
    expect(await pardons.record({ ...pardon, serverId: survival, reason: 'again', pardonedAt: 4_000 })).toBe(false);
    expect(await pardons.find(alpha, 'p1')).toEqual({
      issuerName: 'mod',
      reason: 'appeal accepted',
      server: 'lobby',
      pardonedAt: 3_000,
    });
    expect(await pardons.find(alpha, 'p2')).toBeUndefined();
  });
});
