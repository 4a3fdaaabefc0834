import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, newPunishment, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('punishment export store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it("pages through one network's punishments in id order, each with its pardon", async () => {
    const { punishments, pardons, punishmentExport } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    for (const id of ['c', 'a', 'b', 'd']) await punishments.insert(newPunishment(alpha, id, { createdAt: 2_000 }));
    await punishments.insert(
      newPunishment(alpha, 'e', {
        targetUuid: JEB,
        status: 'warning',
        typeOrdinal: 0,
        data: { ipAddress: '10.0.0.0/8' },
      }),
    );
    await punishments.insert(newPunishment(beta, 'a0', {}));
    await punishments.setStatus(alpha, 'b', 'pardoned', 3_000);
    await pardons.record({
      networkId: alpha,
      punishmentId: 'b',
      issuerName: 'Admin',
      reason: 'appeal accepted',
      serverId: null,
      pardonedAt: 3_000,
    });

    const first = await punishmentExport.page(alpha, null, 2);
    expect(first.map((row) => row.id)).toEqual(['a', 'b']);
    expect(first[1]).toMatchObject({
      status: 'pardoned',
      pardonIssuerName: 'Admin',
      pardonReason: 'appeal accepted',
      pardonedAt: 3_000,
    });
    expect(first[0]).toMatchObject({
      targetName: 'Notch',
      issuerName: 'mod',
      typeOrdinal: 2,
      duration: -1,
      createdAt: 2_000,
      pardonIssuerName: null,
    });
    const rest = await punishmentExport.page(alpha, 'b', 10);
    expect(rest.map((row) => row.id)).toEqual(['c', 'd', 'e']);
    expect(rest[2]).toMatchObject({ targetUuid: JEB, status: 'warning', data: '{"ipAddress":"10.0.0.0/8"}' });
    expect(await punishmentExport.page(alpha, 'e', 10)).toEqual([]);
    expect((await punishmentExport.page(beta, null, 10)).map((row) => row.id)).toEqual(['a0']);
  });
});
