import { describe, expect, it } from 'vitest';
import type { Freeze } from '../../../src/service/store/ports/freezes.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, twoNetworks } from './fixtures.js';

function freezeOf(networkId: number, playerUuid: string, frozenAt: number, overrides: Partial<Freeze> = {}): Freeze {
  return {
    networkId,
    playerUuid,
    playerName: playerUuid.toLowerCase() === NOTCH ? 'Notch' : 'jeb_',
    reason: 'x-ray',
    issuerName: 'Mod',
    serverName: 'lobby',
    frozenAt,
    ...overrides,
  };
}

describe.each(BACKENDS)('freeze store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('keeps one freeze per player and network, the first one, until the player is unfrozen', async () => {
    const { freezes } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await freezes.freeze(freezeOf(alpha, NOTCH.toUpperCase(), 1_000))).toBe(true);
    expect(await freezes.freeze(freezeOf(alpha, NOTCH, 2_000, { reason: 'again' }))).toBe(false);
    expect(await freezes.find(alpha, NOTCH)).toEqual(freezeOf(alpha, NOTCH, 1_000));
    expect(await freezes.find(beta, NOTCH)).toBeUndefined();
    expect(await freezes.count(alpha)).toBe(1);
    expect(await freezes.count(beta)).toBe(0);

    expect(await freezes.unfreeze(beta, NOTCH)).toBe(false);
    expect(await freezes.unfreeze(alpha, NOTCH.toUpperCase())).toBe(true);
    expect(await freezes.unfreeze(alpha, NOTCH)).toBe(false);
    expect(await freezes.find(alpha, NOTCH)).toBeUndefined();
  });

  it("lists a network's frozen players newest first, up to the limit, with a panel freeze's missing server", async () => {
    const { freezes } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await freezes.freeze(freezeOf(alpha, NOTCH, 1_000));
    await freezes.freeze(freezeOf(alpha, JEB, 3_000, { serverName: null }));
    await freezes.freeze(freezeOf(beta, NOTCH, 2_000));
    expect((await freezes.list(alpha, 10)).map((freeze) => [freeze.playerUuid, freeze.serverName])).toEqual([
      [JEB, null],
      [NOTCH, 'lobby'],
    ]);
    expect(await freezes.list(alpha, 1)).toEqual([freezeOf(alpha, JEB, 3_000, { serverName: null })]);
    expect(await freezes.list(beta, 10)).toEqual([freezeOf(beta, NOTCH, 2_000)]);
  });
});
