import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStorage } from '../../../src/service/store/open-storage.js';
import type { ServiceStorage } from '../../../src/service/store/ports/storage.js';
import { TransactionBatcher, type TransactionWork } from '../../../src/service/transaction-batcher.js';
import { type ConformanceStorage, DIALECTS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, twoNetworks } from './fixtures.js';

/** The storage, counting the transactions it begins. */
function counted(storage: ConformanceStorage): { storage: ServiceStorage; transactions: () => number } {
  let transactions = 0;
  const wrapped = {
    dialect: storage.dialect,
    stores: storage.stores,
    transaction: (work: (stores: ConformanceStorage['stores']) => Promise<unknown>) => {
      transactions += 1;
      return storage.transaction(work);
    },
  };
  return { storage: wrapped as unknown as ServiceStorage, transactions: () => transactions };
}

/** A batcher whose turn ends when the test says so. */
function byHand(storage: ServiceStorage, maxBatch?: number) {
  const flushes: Array<() => void> = [];
  const batcher = new TransactionBatcher(storage, {
    schedule: (flush) => flushes.push(flush),
    ...(maxBatch === undefined ? {} : { maxBatch }),
  });
  return {
    batcher,
    endTurn: () => {
      for (const flush of flushes.splice(0)) flush();
    },
  };
}

const renaming =
  (networkId: number, uuid: string, name: string): TransactionWork<string | undefined> =>
  async (stores) => {
    await stores.players.save(networkId, uuid, name);
    return stores.players.findName(networkId, uuid);
  };

describe.each(DIALECTS)('transaction batcher on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('runs the works of one turn in one transaction, in order, each seeing the writes before it', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const { storage: countedStorage, transactions } = counted(storage());
    const { batcher, endTurn } = byHand(countedStorage);
    const first = batcher.run(renaming(alpha, NOTCH, 'Notch'));
    const again = batcher.run(async (stores) => {
      const before = await stores.players.findName(alpha, NOTCH);
      await stores.players.save(alpha, NOTCH, 'Notch2');
      return before;
    });
    const other = batcher.run(renaming(alpha, JEB, 'jeb_'));
    endTurn();

    expect(await Promise.all([first, again, other])).toEqual(['Notch', 'Notch', 'jeb_']);
    expect(transactions()).toBe(1);
    expect(await storage().stores.players.findName(alpha, NOTCH)).toBe('Notch2');
    expect(await storage().stores.players.findName(alpha, JEB)).toBe('jeb_');
  });

  it('fails only the work that threw: its writes are undone, the others are committed with their answers', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const { storage: countedStorage, transactions } = counted(storage());
    const { batcher, endTurn } = byHand(countedStorage);
    const first = batcher.run(renaming(alpha, NOTCH, 'Notch'));
    const failing = batcher.run(async (stores) => {
      await stores.players.save(alpha, JEB, 'written-then-failed');
      throw new Error('this login failed');
    });
    const third = batcher.run(async (stores) => {
      await stores.players.save(alpha, JEB, 'jeb_');
      return stores.players.findName(alpha, NOTCH);
    });
    endTurn();

    await expect(failing).rejects.toThrow('this login failed');
    expect(await first).toBe('Notch');
    expect(await third).toBe('Notch');
    expect(await storage().stores.players.findName(alpha, NOTCH)).toBe('Notch');
    expect(await storage().stores.players.findName(alpha, JEB)).toBe('jeb_');
    // The batch that failed, then the others again without it.
    expect(transactions()).toBe(2);
  });

  it('gives a failing work the error it met after the works before it, as if each had run alone', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const { batcher, endTurn } = byHand(storage() as unknown as ServiceStorage);
    const writes = batcher.run(renaming(alpha, NOTCH, 'Notch'));
    const seesIt = batcher.run(async (stores) => {
      const name = await stores.players.findName(alpha, NOTCH);
      throw new Error(`failed after seeing ${name}`);
    });
    endTurn();

    await expect(seesIt).rejects.toThrow('failed after seeing Notch');
    expect(await writes).toBe('Notch');
  });

  it('runs a batch at once when it is full, without waiting for the end of the turn', async () => {
    const { alpha } = await twoNetworks(storage().stores);
    const { storage: countedStorage, transactions } = counted(storage());
    const { batcher, endTurn } = byHand(countedStorage, 2);
    const full = [batcher.run(renaming(alpha, NOTCH, 'Notch')), batcher.run(renaming(alpha, JEB, 'jeb_'))];
    expect(await Promise.all(full)).toEqual(['Notch', 'jeb_']);
    const late = batcher.run(renaming(alpha, NOTCH, 'Notch3'));
    endTurn();
    expect(await late).toBe('Notch3');
    expect(transactions()).toBe(2);
  });
});

describe('transaction batcher when the transaction itself fails', () => {
  it('gives every caller the error of the transaction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bailiff-batcher-'));
    try {
      const storage = await openSqliteStorage(join(dir, 'service.sqlite'));
      await storage.close();
      const { batcher, endTurn } = byHand(storage);
      const calls = [batcher.run(async () => 'one'), batcher.run(async () => 'two')];
      endTurn();
      for (const call of calls) await expect(call).rejects.toThrow('driver has already been destroyed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
