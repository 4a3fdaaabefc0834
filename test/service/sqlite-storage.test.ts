import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';
import { SERVICE_SCHEMA_MIGRATIONS } from '../../src/service/db/schema.js';
import { SqliteStorage } from '../../src/service/store/sqlite-storage.js';
import { settle } from '../support/fake-time.js';

let storage: SqliteStorage;

beforeEach(() => {
  const db = openDb(':memory:');
  applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);
  storage = new SqliteStorage(db);
});

afterEach(async () => {
  await storage.close();
});

describe('SqliteStorage transactions', () => {
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
    await expect(leaked.networks.findNetwork('alpha')).rejects.toThrow(/used outside that work/);
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

describe('SqliteStorage rehearsals', () => {
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
