import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('immunity store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it("keeps each role's weight per network; 0 removes it", async () => {
    const { immunity } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await immunity.roleWeight(alpha, 'moderator')).toBe(0);
    await immunity.saveRoleWeight(alpha, 'moderator', 20, 1_000);
    await immunity.saveRoleWeight(alpha, 'admin', 90, 1_000);
    await immunity.saveRoleWeight(beta, 'moderator', 5, 1_000);
    await immunity.saveRoleWeight(alpha, 'moderator', 30, 2_000);
    expect(await immunity.roleWeight(alpha, 'moderator')).toBe(30);
    expect(await immunity.roleWeights(alpha)).toEqual([
      { role: 'admin', weight: 90 },
      { role: 'moderator', weight: 30 },
    ]);
    await immunity.saveRoleWeight(alpha, 'admin', 0, 3_000);
    expect(await immunity.roleWeights(alpha)).toEqual([{ role: 'moderator', weight: 30 }]);
    expect(await immunity.roleWeight(beta, 'moderator')).toBe(5);
  });

  it("remembers the weight last reported for a player, whatever the UUID's case; 0 forgets it", async () => {
    const { immunity } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await immunity.playerWeight(alpha, JEB)).toBe(0);
    await immunity.reportPlayerWeight(alpha, JEB.toUpperCase(), 20, 1_000);
    await immunity.reportPlayerWeight(beta, JEB, 5, 1_000);
    expect(await immunity.playerWeight(alpha, JEB)).toBe(20);
    await immunity.reportPlayerWeight(alpha, JEB, 10, 2_000);
    expect(await immunity.playerWeight(alpha, JEB.toUpperCase())).toBe(10);
    await immunity.reportPlayerWeight(alpha, JEB, 0, 3_000);
    await immunity.reportPlayerWeight(alpha, NOTCH, 0, 3_000);
    expect(await immunity.playerWeight(alpha, JEB)).toBe(0);
    expect(await immunity.playerWeight(alpha, NOTCH)).toBe(0);
    expect(await immunity.playerWeight(beta, JEB)).toBe(5);
  });
});
