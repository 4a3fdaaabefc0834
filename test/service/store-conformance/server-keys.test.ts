import { describe, expect, it } from 'vitest';
import { DIALECTS, useConformanceStorage } from './backends.js';
import { twoNetworks } from './fixtures.js';

const HOUR_MS = 3_600_000;
const KEY_1 = 'first-key-of-the-server-0123456789';
const KEY_2 = 'second-key-of-the-server-0123456789';
const KEY_3 = 'third-key-of-the-server-0123456789';

/**
 * Servers and keys as operators manage them. The storage measures a key's grace period by the
 * system clock here, so times are placed hours away from now: what is valid and what is over never
 * depends on how long the test takes.
 */
describe.each(DIALECTS)('server keys on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('adds a server once per name and network, found by name and by its key', async () => {
    const { networks, serverKeys } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const now = Date.now();
    const lobby = await serverKeys.addServer(alpha, 'lobby', KEY_1, now);
    expect(lobby).toBeTypeOf('number');
    expect(await serverKeys.addServer(alpha, 'lobby', KEY_2, now)).toBeUndefined();
    expect(await serverKeys.findServer(alpha, 'lobby')).toEqual({ id: lobby, name: 'lobby' });
    expect(await serverKeys.findServer(beta, 'lobby')).toBeUndefined();
    expect(await networks.authenticate(KEY_1)).toEqual({ networkId: alpha, serverId: lobby, serverName: 'lobby' });
    expect(await networks.authenticate(KEY_2)).toBeUndefined();
    expect(await serverKeys.list(alpha, now)).toEqual([
      { id: lobby, name: 'lobby', keySetAt: now, retiredKeysValidUntil: [] },
    ]);
    expect(await serverKeys.list(beta, now)).toEqual([]);
  });

  it('keeps the old key accepted during its grace period only, and forgets retired keys that are over', async () => {
    const { networks, serverKeys } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const now = Date.now();
    const id = (await serverKeys.addServer(alpha, 'lobby', KEY_1, now - 3 * HOUR_MS))!;

    // Rotated three hours ago with a grace of two: the first key's time is over.
    await serverKeys.rotateKey(id, KEY_2, now - 3 * HOUR_MS, now - HOUR_MS);
    expect(await networks.authenticate(KEY_1)).toBeUndefined();
    expect((await networks.authenticate(KEY_2))?.serverId).toBe(id);

    // Rotated now with a grace of an hour: the second key still works, beside the third.
    await serverKeys.rotateKey(id, KEY_3, now, now + HOUR_MS);
    expect((await networks.authenticate(KEY_2))?.serverId).toBe(id);
    expect((await networks.authenticate(KEY_3))?.serverId).toBe(id);
    expect(await networks.authenticate(KEY_1)).toBeUndefined();
    expect(await serverKeys.list(alpha, now)).toEqual([
      { id, name: 'lobby', keySetAt: now, retiredKeysValidUntil: [now + HOUR_MS] },
    ]);

    // Without grace, the key in use stops at once; the one still in its grace period stays.
    await serverKeys.rotateKey(id, KEY_1, now, now);
    expect(await networks.authenticate(KEY_3)).toBeUndefined();
    expect((await networks.authenticate(KEY_2))?.serverId).toBe(id);
    expect((await networks.authenticate(KEY_1))?.serverId).toBe(id);
  });

  it('removes a server: no key of it works, it is not listed, and adding the name again brings it back', async () => {
    const { networks, serverKeys } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const now = Date.now();
    const id = (await serverKeys.addServer(alpha, 'lobby', KEY_1, now))!;
    const other = (await serverKeys.addServer(alpha, 'survival', KEY_3, now))!;
    await serverKeys.rotateKey(id, KEY_2, now, now + HOUR_MS);
    await serverKeys.removeServer(id, now);
    expect(await networks.authenticate(KEY_1)).toBeUndefined();
    expect(await networks.authenticate(KEY_2)).toBeUndefined();
    expect(await serverKeys.findServer(alpha, 'lobby')).toBeUndefined();
    expect((await serverKeys.list(alpha, now)).map((server) => server.name)).toEqual(['survival']);
    expect(await networks.serversOf(alpha)).toEqual([{ id: other, name: 'survival' }]);
    // Its history still names it.
    expect(await networks.serverName(id)).toBe('lobby');

    expect(await serverKeys.addServer(alpha, 'lobby', KEY_1, now + 1)).toBe(id);
    expect((await networks.authenticate(KEY_1))?.serverId).toBe(id);
    expect(await networks.authenticate(KEY_2)).toBeUndefined();
    expect((await serverKeys.list(alpha, now)).map((server) => [server.name, server.keySetAt])).toEqual([
      ['lobby', now + 1],
      ['survival', now],
    ]);
  });

  it('lets a seed bring back a removed server with its key', async () => {
    const { networks, serverKeys } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const id = await networks.ensureServer(alpha, 'lobby', KEY_1);
    await serverKeys.removeServer(id, Date.now());
    expect(await networks.authenticate(KEY_1)).toBeUndefined();
    expect(await networks.ensureServer(alpha, 'lobby', KEY_1)).toBe(id);
    expect((await networks.authenticate(KEY_1))?.serverId).toBe(id);
  });

  it('rotates and removes inside a transaction, undone with it', async () => {
    const { networks, serverKeys } = storage().stores;
    const { alpha } = await twoNetworks(storage().stores);
    const now = Date.now();
    const id = (await serverKeys.addServer(alpha, 'lobby', KEY_1, now))!;
    await expect(
      storage().transaction(async (stores) => {
        await stores.serverKeys.rotateKey(id, KEY_2, now, now);
        await stores.serverKeys.removeServer(id, now);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await networks.authenticate(KEY_1))?.serverId).toBe(id);
    expect(await networks.authenticate(KEY_2)).toBeUndefined();
  });
});
