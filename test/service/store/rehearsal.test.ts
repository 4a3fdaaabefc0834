import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openSqliteStorage } from '../../../src/service/store/open-storage.js';

let dir: string;
let storage: KyselyStorage;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bailiff-rehearsal-'));
  storage = await openSqliteStorage(join(dir, 'service.db'));
});

afterEach(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the one storage's rehearsals (SQLite)", () => {
  it('undoes every write of the rehearsal, its transactions included, and returns what the work returned', async () => {
    const kept = await storage.stores.networks.ensureNetwork('kept');
    const returned = await storage.rehearse(async () => {
      await storage.stores.networks.ensureNetwork('rehearsed');
      await storage.transaction(async (stores) => {
        await stores.players.save(kept, '069a79f4-44e9-4726-a5be-fca90e38aaf5', 'Notch');
      });
      // A transaction that fails inside the rehearsal undoes its own writes and leaves the rehearsal's.
      await expect(
        storage.transaction(async (stores) => {
          await stores.networks.ensureNetwork('failed');
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      return {
        rehearsed: await storage.stores.networks.findNetwork('rehearsed'),
        failed: await storage.stores.networks.findNetwork('failed'),
        player: await storage.stores.players.findName(kept, '069a79f4-44e9-4726-a5be-fca90e38aaf5'),
      };
    });
    expect(returned).toEqual({ rehearsed: expect.any(Number), failed: undefined, player: 'Notch' });
    expect(await storage.stores.networks.findNetwork('rehearsed')).toBeUndefined();
    expect(await storage.stores.players.findName(kept, '069a79f4-44e9-4726-a5be-fca90e38aaf5')).toBeUndefined();
    expect(await storage.stores.networks.findNetwork('kept')).toBe(kept);
    // Transactions after it commit as usual.
    await storage.transaction(async (stores) => {
      await stores.networks.ensureNetwork('after');
    });
    expect(await storage.stores.networks.findNetwork('after')).toBeTypeOf('number');
  });

  it('undoes the writes when the rehearsal fails, and rethrows', async () => {
    await expect(
      storage.rehearse(async () => {
        await storage.stores.networks.ensureNetwork('rehearsed');
        throw new Error('the rehearsal failed');
      }),
    ).rejects.toThrow('the rehearsal failed');
    expect(await storage.stores.networks.findNetwork('rehearsed')).toBeUndefined();
  });

  it('refuses to start while a transaction is open', async () => {
    let finish: () => void = () => {};
    const open = storage.transaction(
      () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    );
    await expect(storage.rehearse(async () => {})).rejects.toThrow('a rehearsal needs the storage to itself');
    finish();
    await open;
  });
});
