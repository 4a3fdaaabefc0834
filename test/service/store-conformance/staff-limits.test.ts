import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, newPunishment, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('staff limit store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it("keeps each role's limits per network, replaced on save", async () => {
    const { staffLimits } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await staffLimits.find(alpha, 'helper')).toBeUndefined();
    const week = 7 * 86_400_000;
    await staffLimits.save(alpha, 'helper', { banMaxMs: week, muteMaxMs: null, hourlyMax: 5 }, 1_000);
    await staffLimits.save(alpha, 'moderator', { banMaxMs: null, muteMaxMs: 3_600_000, hourlyMax: null }, 1_000);
    await staffLimits.save(beta, 'helper', { banMaxMs: 1, muteMaxMs: 1, hourlyMax: 1 }, 1_000);
    expect(await staffLimits.find(alpha, 'helper')).toEqual({
      banMaxMs: week,
      muteMaxMs: null,
      hourlyMax: 5,
    });

    await staffLimits.save(alpha, 'helper', { banMaxMs: null, muteMaxMs: 60_000, hourlyMax: null }, 2_000);
    expect(await staffLimits.list(alpha)).toEqual([
      { role: 'helper', banMaxMs: null, muteMaxMs: 60_000, hourlyMax: null },
      { role: 'moderator', banMaxMs: null, muteMaxMs: 3_600_000, hourlyMax: null },
    ]);
    expect(await staffLimits.list(beta)).toHaveLength(1);
  });

  it('counts and lists what one issuer issued, by exact name, in its network and range', async () => {
    const { staffLimits, punishments } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'a1', { issuerName: 'rogue', createdAt: 1_000 }));
    await punishments.insert(
      newPunishment(alpha, 'a2', { issuerName: 'rogue', createdAt: 5_000, targetUuid: JEB, targetName: 'jeb_' }),
    );
    await punishments.insert(newPunishment(alpha, 'a3', { issuerName: 'rogue', createdAt: 9_000, status: 'pardoned' }));
    await punishments.insert(newPunishment(alpha, 'a4', { issuerName: 'Rogue', createdAt: 5_000 }));
    await punishments.insert(newPunishment(alpha, 'a5', { issuerName: 'other', createdAt: 5_000 }));
    await punishments.insert(newPunishment(beta, 'b1', { issuerName: 'rogue', createdAt: 5_000 }));

    expect(await staffLimits.countIssuedSince(alpha, 'rogue', 0)).toBe(3);
    expect(await staffLimits.countIssuedSince(alpha, 'rogue', 5_000)).toBe(2);
    expect(await staffLimits.countIssuedSince(alpha, 'nobody', 0)).toBe(0);

    const listed = await staffLimits.issuedBetween(alpha, 'rogue', 1_000, 5_000);
    expect(listed).toEqual([
      {
        id: 'a1',
        targetUuid: expect.any(String),
        targetName: 'Notch',
        typeOrdinal: 2,
        reason: 'griefing',
        duration: -1,
        status: 'active',
        createdAt: 1_000,
      },
      expect.objectContaining({ id: 'a2', targetName: 'jeb_', createdAt: 5_000 }),
    ]);
    expect((await staffLimits.issuedBetween(alpha, 'rogue', 0, 10_000)).map((p) => p.id)).toEqual(['a1', 'a2', 'a3']);
    expect(await staffLimits.issuedBetween(beta, 'rogue', 0, 4_000)).toEqual([]);
  });
});
