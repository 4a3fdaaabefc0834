import { describe, expect, it } from 'vitest';
import { DIALECTS, useConformanceStorage } from './backends.js';
import { twoNetworks } from './fixtures.js';

describe.each(DIALECTS)('idempotency key store on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('answers a key reused within the retention with the first creation, per network', async () => {
    const { idempotencyKeys } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await idempotencyKeys.record(alpha, 'key-1', { requestHash: 'hash-a', punishmentId: 'p1' }, 1_000);

    expect(await idempotencyKeys.find(alpha, 'key-1', 500)).toEqual({ requestHash: 'hash-a', punishmentId: 'p1' });
    expect(await idempotencyKeys.find(alpha, 'key-1', 1_000)).toEqual({ requestHash: 'hash-a', punishmentId: 'p1' });
    expect(await idempotencyKeys.find(alpha, 'key-1', 1_001)).toBeUndefined();
    expect(await idempotencyKeys.find(beta, 'key-1', 0)).toBeUndefined();
    expect(await idempotencyKeys.find(alpha, 'key-2', 0)).toBeUndefined();
  });

  it('replaces an expired key recorded again, and prunes keys older than a time', async () => {
    const { idempotencyKeys } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await idempotencyKeys.record(alpha, 'key-1', { requestHash: 'old', punishmentId: 'p1' }, 1_000);
    await idempotencyKeys.record(alpha, 'key-1', { requestHash: 'new', punishmentId: 'p2' }, 5_000);
    await idempotencyKeys.record(alpha, 'key-2', { requestHash: 'h', punishmentId: 'p3' }, 2_000);
    await idempotencyKeys.record(beta, 'key-3', { requestHash: 'h', punishmentId: 'p4' }, 3_000);

    expect(await idempotencyKeys.find(alpha, 'key-1', 4_000)).toEqual({ requestHash: 'new', punishmentId: 'p2' });
    expect(await idempotencyKeys.prune(3_000)).toBe(1);
    expect(await idempotencyKeys.find(alpha, 'key-2', 0)).toBeUndefined();
    expect(await idempotencyKeys.find(beta, 'key-3', 0)).toEqual({ requestHash: 'h', punishmentId: 'p4' });
    expect(await idempotencyKeys.prune(3_000)).toBe(0);
  });
});

describe.each(DIALECTS)('claiming an idempotency key on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('claims a free key, answers a held one with its creation, and takes over one older than the retention', async () => {
    const { alpha, beta } = await twoNetworks(storage().stores);
    const claimed = await storage().transaction(async (stores) => {
      const claim = await stores.idempotencyKeys.claim(alpha, 'key-1', 'hash-a', 1_000, 0);
      await stores.idempotencyKeys.complete(alpha, 'key-1', 'p1');
      return claim;
    });
    expect(claimed).toEqual({ isClaimed: true });

    const { idempotencyKeys } = storage().stores;
    expect(await idempotencyKeys.claim(alpha, 'key-1', 'hash-b', 2_000, 500)).toEqual({
      isClaimed: false,
      earlier: { requestHash: 'hash-a', punishmentId: 'p1' },
    });
    expect(await idempotencyKeys.claim(beta, 'key-1', 'hash-b', 2_000, 500)).toEqual({ isClaimed: true });
    // Recorded at 1_000, the key is older than a retention starting at 1_500: a new creation takes it.
    expect(await idempotencyKeys.claim(alpha, 'key-1', 'hash-c', 3_000, 1_500)).toEqual({ isClaimed: true });
    expect(await idempotencyKeys.find(alpha, 'key-1', 0)).toEqual({ requestHash: 'hash-c', punishmentId: '' });
  });

  it('makes a claim of a key another transaction holds wait: then its creation, or the key once it rolled back', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const { idempotencyKeys } = storage().stores;
    /** A transaction that claims the key, signals it, then waits for `end` to complete it as `created` or fail. */
    const holder = (created: string) => {
      let claimed: () => void = () => {};
      let end: (outcome: 'commit' | 'fail') => void = () => {};
      const hasClaimed = new Promise<void>((resolve) => (claimed = resolve));
      const ending = new Promise<'commit' | 'fail'>((resolve) => (end = resolve));
      const done = storage().transaction(async (stores) => {
        const claim = await stores.idempotencyKeys.claim(alpha, 'key', 'h', 1_000, 0);
        claimed();
        if ((await ending) === 'fail') throw new Error('the creation failed');
        await stores.idempotencyKeys.complete(alpha, 'key', created);
        return claim;
      });
      return { hasClaimed, end, done };
    };
    const claimAfterwards = () =>
      storage().transaction(async (stores) => stores.idempotencyKeys.claim(alpha, 'key', 'h', 1_000, 0));

    const first = holder('p1');
    await first.hasClaimed;
    const second = claimAfterwards();
    // The second claim is under way (on PostgreSQL waiting on the key, on SQLite on the lock) when the first commits.
    setTimeout(() => first.end('commit'), 50);
    expect(await Promise.all([first.done, second])).toEqual([
      { isClaimed: true },
      { isClaimed: false, earlier: { requestHash: 'h', punishmentId: 'p1' } },
    ]);

    await idempotencyKeys.prune(Number.MAX_SAFE_INTEGER);
    const failing = holder('p2');
    await failing.hasClaimed;
    const after = claimAfterwards();
    setTimeout(() => failing.end('fail'), 50);
    await expect(failing.done).rejects.toThrow('the creation failed');
    expect(await after).toEqual({ isClaimed: true });
    expect(await idempotencyKeys.find(alpha, 'key', 0)).toEqual({ requestHash: 'h', punishmentId: '' });
  });
});
