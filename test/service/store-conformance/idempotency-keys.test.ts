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
