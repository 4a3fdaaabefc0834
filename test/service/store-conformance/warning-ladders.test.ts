import { describe, expect, it } from 'vitest';
import type { WarningLadder } from '../../../src/service/store/ports/warning-ladders.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, newPunishment, twoNetworks } from './fixtures.js';

const DAY_MS = 86_400_000;

function ladder(overrides: Partial<WarningLadder> = {}): WarningLadder {
  return {
    name: 'Chat conduct',
    warningLifetimeMs: 30 * DAY_MS,
    steps: [
      { warnings: 3, typeOrdinal: 1, duration: DAY_MS },
      { warnings: 5, typeOrdinal: 2, duration: 7 * DAY_MS },
    ],
    updatedAt: 1_000,
    ...overrides,
  };
}

describe.each(BACKENDS)('warning ladder store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('keeps one ladder per network, replaced whole, and removed with its steps', async () => {
    const { warningLadders } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    expect(await warningLadders.ladderOf(alpha)).toBeUndefined();
    await warningLadders.replace(alpha, ladder());
    expect(await warningLadders.ladderOf(alpha)).toEqual(ladder());
    expect(await warningLadders.ladderOf(beta)).toBeUndefined();

    const shorter = ladder({
      name: 'Second try',
      warningLifetimeMs: 7 * DAY_MS,
      steps: [{ warnings: 2, typeOrdinal: 2, duration: -1 }],
      updatedAt: 2_000,
    });
    await warningLadders.replace(alpha, shorter);
    expect(await warningLadders.ladderOf(alpha)).toEqual(shorter);

    expect(await warningLadders.remove(beta)).toBe(false);
    expect(await warningLadders.remove(alpha)).toBe(true);
    expect(await warningLadders.ladderOf(alpha)).toBeUndefined();
    // A ladder set again after removal starts with no step of the old one.
    await warningLadders.replace(alpha, ladder({ steps: [{ warnings: 4, typeOrdinal: 0, duration: 0 }] }));
    expect((await warningLadders.ladderOf(alpha))?.steps).toEqual([{ warnings: 4, typeOrdinal: 0, duration: 0 }]);
  });

  it('refuses two steps at one threshold, leaving the ladder as it was', async () => {
    const { warningLadders } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    await warningLadders.replace(alpha, ladder());
    const overlapping = ladder({
      steps: [
        { warnings: 3, typeOrdinal: 1, duration: DAY_MS },
        { warnings: 3, typeOrdinal: 2, duration: DAY_MS },
      ],
    });
    await expect(
      storage().transaction((stores) => stores.warningLadders.replace(alpha, overlapping)),
    ).rejects.toThrow();
    expect(await warningLadders.ladderOf(alpha)).toEqual(ladder());
  });

  it("counts a player's standing warnings within the lifetime: not pardoned ones, not other punishments", async () => {
    const { warningLadders, punishments } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const warning = (id: string, createdAt: number, overrides = {}) =>
      punishments.insert(
        newPunishment(alpha, id, { status: 'warning', typeOrdinal: 0, duration: 0, createdAt, ...overrides }),
      );
    await warning('w-old', 1_000);
    await warning('w1', 10_000);
    await warning('w2', 20_000);
    await warning('w-pardoned', 20_000, { status: 'pardoned' });
    await warning('w-jeb', 20_000, { targetUuid: JEB, targetName: 'jeb_' });
    await punishments.insert(newPunishment(alpha, 'ban', { createdAt: 20_000 }));
    await punishments.insert(newPunishment(beta, 'w-beta', { status: 'warning', createdAt: 20_000 }));

    expect(await warningLadders.liveWarnings(alpha, NOTCH, 1_000)).toBe(2);
    expect(await warningLadders.liveWarnings(alpha, NOTCH, 999)).toBe(3);
    expect(await warningLadders.liveWarnings(alpha, NOTCH, 20_000)).toBe(0);
    expect(await warningLadders.liveWarnings(alpha, JEB, 0)).toBe(1);
    expect(await warningLadders.liveWarnings(beta, NOTCH, 0)).toBe(1);
  });

  it('holds a player inside a transaction without blocking another player', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const counted = await storage().transaction(async (stores) => {
      await stores.warningLadders.holdPlayer(alpha, NOTCH);
      await stores.warningLadders.holdPlayer(alpha, JEB);
      return stores.warningLadders.liveWarnings(alpha, NOTCH, 0);
    });
    expect(counted).toBe(0);
  });
});
