import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KyselyStorage } from '../../../src/service/store/kysely-storage.js';
import { openSqliteStorage } from '../../../src/service/store/open-storage.js';
import { settle } from '../../support/fake-time.js';

let storage: KyselyStorage;

beforeEach(async () => {
  storage = await openSqliteStorage(':memory:');
});

afterEach(async () => {
  await storage.close();
});

describe('transactions of the one store on SQLite', () => {
  it('makes a call from outside wait until the transaction has committed, across its awaits', async () => {
    const events: string[] = [];
    let inserted: () => void = () => {};
    const hasInserted = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let finish: () => void = () => {};
    const mayFinish = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const transaction = storage.transaction(async (stores) => {
      await stores.networks.ensureNetwork('alpha');
      inserted();
      // Holds the transaction open across turns of the event loop.
      await mayFinish;
      await stores.networks.ensureNetwork('beta');
      events.push('work done');
    });
    await hasInserted;
    const outside = storage.stores.networks.findNetwork('beta').then((id) => {
      events.push('outside read');
      return id;
    });
    await settle();
    const beforeCommit = [...events];
    finish();
    await transaction;
    expect(beforeCommit).toEqual([]);
    expect(await outside).toBeTypeOf('number');
    expect(events).toEqual(['work done', 'outside read']);
  });

  it('runs two transactions one after the other, in the order they were asked for', async () => {
    const events: string[] = [];
    const first = storage.transaction(async (stores) => {
      events.push('first begins');
      await settle(1);
      await stores.networks.ensureNetwork('alpha');
      events.push('first ends');
    });
    const second = storage.transaction(async (stores) => {
      events.push('second begins');
      events.push(`second sees alpha: ${(await stores.networks.findNetwork('alpha')) !== undefined}`);
    });
    await Promise.all([first, second]);
    expect(events).toEqual(['first begins', 'first ends', 'second begins', 'second sees alpha: true']);
  });

  it('rolls back everything the work wrote when it throws, and rejects with that error', async () => {
    const failure = storage.transaction(async (stores) => {
      await stores.networks.ensureNetwork('alpha');
      await stores.punishments.insert({
        networkId: 1,
        id: 'p1',
        targetUuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
        targetName: 'Notch',
        issuerName: 'Console',
        typeOrdinal: 2,
        reason: 'spam',
        duration: -1,
        status: 'active',
        createdAt: 1,
      });
      throw new Error('the work failed');
    });
    await expect(failure).rejects.toThrow('the work failed');
    expect(await storage.stores.networks.findNetwork('alpha')).toBeUndefined();
    expect(await storage.stores.punishments.find(1, 'p1')).toBeUndefined();
    // The lock is free again: a later transaction commits.
    await storage.transaction(async (stores) => {
      await stores.networks.ensureNetwork('beta');
    });
    expect(await storage.stores.networks.findNetwork('beta')).toBeTypeOf('number');
  });

  it('refuses a transaction started inside another one, naming the misuse, instead of waiting forever', async () => {
    const nested = storage.transaction(async () => storage.transaction(async () => 'inner'));
    await expect(nested).rejects.toThrow(/transactions do not nest/);
    expect(await storage.transaction(async () => 'later')).toBe('later');
  });

  it('refuses a call on storage.stores inside the work, naming the stores to use instead', async () => {
    const misuse = storage.transaction(async () => storage.stores.networks.findNetwork('alpha'));
    await expect(misuse).rejects.toThrow(/inside the work use only the stores passed to it/);
  });

  it('refuses the stores of a transaction once it has ended', async () => {
    const leaked = await storage.transaction(async (stores) => stores);
    await expect(leaked.networks.findNetwork('alpha')).rejects.toThrow(
      /used after it ended: use them only inside its work/,
    );
  });

  it('lets a timer set inside a transaction use storage.stores once it has ended', async () => {
    let later: Promise<number | undefined> | undefined;
    await storage.transaction(async (stores) => {
      await stores.networks.ensureNetwork('alpha');
      later = new Promise((resolve, reject) => {
        setImmediate(() => storage.stores.networks.findNetwork('alpha').then(resolve, reject));
      });
    });
    expect(await later).toBeTypeOf('number');
  });

  it('rejects a failing statement of a single call without holding anything', async () => {
    await expect(storage.stores.migrations.progress('none', 'completed', 0, 'x', 1)).resolves.toBeUndefined();
    await expect(
      storage.stores.punishments.insert({
        networkId: 1,
        id: 'p1',
        targetUuid: 'x',
        targetName: 'x',
        issuerName: 'x',
        typeOrdinal: 2,
        reason: '',
        duration: -1,
        status: 'active',
        createdAt: Number.NaN,
      }),
    ).rejects.toThrow(/createdAt/);
    expect(await storage.stores.networks.ensureNetwork('alpha')).toBeTypeOf('number');
  });
});
