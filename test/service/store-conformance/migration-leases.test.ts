import { describe, expect, it } from 'vitest';
import { emptyTally } from '../../../src/service/store/migration-rows.js';
import { DIALECTS, useConformanceStorage } from './backends.js';
import { twoNetworks } from './fixtures.js';

const progress = (processed: number, message: string, nowMs: number) => ({
  processed,
  tally: { ...emptyTally(), players: processed },
  message,
  nowMs,
});

describe.each(DIALECTS)('migration imports leased to one instance on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  async function uploadHeldBy(owner: string, expiresAtMs: number) {
    const { alpha } = await twoNetworks(storage().stores);
    await storage().stores.migrations.startUpload({
      id: 'u1',
      networkId: alpha,
      serverId: null,
      uploadedBy: 'alice',
      fileSize: 3,
      total: 1_000,
      nowMs: 1_000,
      message: 'storing the file',
      lease: { owner, expiresAtMs },
    });
    return alpha;
  }

  it('keeps the file in chunks, in order, until it is dropped', async () => {
    await uploadHeldBy('a.1', 10_000);
    const { migrations } = storage().stores;
    await migrations.storeChunk('u1', 0, Buffer.from('{"players"'));
    await migrations.storeChunk('u1', 1, Buffer.from([0, 255, 10]));
    await migrations.markStored('u1', 2, 'queued', 1_500);
    expect((await migrations.chunk('u1', 0))?.toString()).toBe('{"players"');
    expect([...(await migrations.chunk('u1', 1))!]).toEqual([0, 255, 10]);
    expect(await migrations.chunk('u1', 2)).toBeUndefined();
    expect(await migrations.dropChunks('u1')).toBe(2);
    expect(await migrations.chunk('u1', 0)).toBeUndefined();
  });

  it('lets only the holder renew, advance and finish; then nobody', async () => {
    const alpha = await uploadHeldBy('a.1', 10_000);
    const { migrations } = storage().stores;
    expect(await migrations.renewLease('u1', { owner: 'b.1', expiresAtMs: 20_000 })).toBe(false);
    expect(await migrations.advance('u1', { owner: 'b.1', expiresAtMs: 20_000 }, progress(500, 'b', 2_000))).toBe(
      false,
    );
    expect(await migrations.renewLease('u1', { owner: 'a.1', expiresAtMs: 20_000 })).toBe(true);
    expect(await migrations.advance('u1', { owner: 'a.1', expiresAtMs: 20_000 }, progress(500, 'half', 2_000))).toBe(
      true,
    );
    expect(await migrations.find(alpha, 'u1')).toMatchObject({ status: 'processing', processed: 500, message: 'half' });
    expect(await migrations.finish('u1', 'b.1', 'completed', progress(1_000, 'b done', 3_000))).toBe(false);
    expect(await migrations.finish('u1', 'a.1', 'completed', progress(1_000, 'done', 3_000))).toBe(true);
    expect(await migrations.find(alpha, 'u1')).toMatchObject({ status: 'completed', processed: 1_000 });
    expect(await migrations.renewLease('u1', { owner: 'a.1', expiresAtMs: 40_000 })).toBe(false);
    expect(await migrations.claimExpired({ owner: 'c.1', expiresAtMs: 90_000 }, 80_000)).toBeUndefined();
  });

  it('hands an import whose lease ran out to the next instance, with where it stood', async () => {
    const alpha = await uploadHeldBy('a.1', 10_000);
    const { migrations } = storage().stores;
    await migrations.markStored('u1', 3, 'queued', 1_000);
    await migrations.advance('u1', { owner: 'a.1', expiresAtMs: 10_000 }, progress(500, 'half', 2_000));
    // Not yet: the lease runs until 10_000.
    expect(await migrations.claimExpired({ owner: 'b.1', expiresAtMs: 19_000 }, 9_000)).toBeUndefined();
    const taken = await migrations.claimExpired({ owner: 'b.1', expiresAtMs: 21_000 }, 11_000);
    expect(taken).toEqual({
      id: 'u1',
      networkId: alpha,
      processed: 500,
      total: 1_000,
      tally: { players: 500, punishments: 0, duplicates: 0, invalid: 0 },
      storedChunks: 3,
    });
    // The instance that lost it writes nothing more.
    expect(await migrations.advance('u1', { owner: 'a.1', expiresAtMs: 30_000 }, progress(1_000, 'a', 12_000))).toBe(
      false,
    );
    expect(await migrations.claimExpired({ owner: 'c.1', expiresAtMs: 22_000 }, 12_000)).toBeUndefined();
    // Let go when its service stops: anyone takes it at once.
    expect(await migrations.release('u1', 'b.1')).toBe(true);
    expect(await migrations.claimExpired({ owner: 'c.1', expiresAtMs: 22_000 }, 12_000)).toMatchObject({
      id: 'u1',
      processed: 500,
    });
  });

  it('gives an expired import to one of two instances asking at once', async () => {
    await uploadHeldBy('a.1', 10_000);
    const { migrations } = storage().stores;
    const claims = await Promise.all([
      migrations.claimExpired({ owner: 'b.1', expiresAtMs: 30_000 }, 20_000),
      migrations.claimExpired({ owner: 'c.1', expiresAtMs: 30_000 }, 20_000),
    ]);
    expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
    // A file never stored whole is handed over all the same: the taker fails it.
    expect(claims.find((claim) => claim !== undefined)!.storedChunks).toBeNull();
  });

  it('cancels a running import of its network only, once', async () => {
    const alpha = await uploadHeldBy('a.1', 10_000);
    const { migrations } = storage().stores;
    const { beta } = await twoNetworks(storage().stores);
    expect(await migrations.cancel(beta, 'u1', 'cancelled', 2_000)).toBe(false);
    expect(await migrations.cancel(alpha, 'u1', 'cancelled by alice', 2_000)).toBe(true);
    expect(await migrations.find(alpha, 'u1')).toMatchObject({ status: 'failed', message: 'cancelled by alice' });
    expect(await migrations.find(beta, 'u1')).toBeUndefined();
    expect(await migrations.cancel(alpha, 'u1', 'again', 3_000)).toBe(false);
    expect(await migrations.advance('u1', { owner: 'a.1', expiresAtMs: 30_000 }, progress(500, 'a', 3_000))).toBe(
      false,
    );
  });
});
