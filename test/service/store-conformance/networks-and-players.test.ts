import { describe, expect, it } from 'vitest';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, NOTCH, twoNetworks } from './fixtures.js';

describe.each(BACKENDS)('network and player stores on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('makes a network and a server once, authenticates by key and follows a new key', async () => {
    const { networks } = storage().stores;
    const alpha = await networks.ensureNetwork('alpha');
    expect(await networks.ensureNetwork('alpha')).toBe(alpha);
    expect(await networks.findNetwork('beta')).toBeUndefined();

    const lobby = await networks.ensureServer(alpha, 'lobby', 'key-one-0123456789');
    expect(await networks.ensureServer(alpha, 'lobby', 'key-one-0123456789')).toBe(lobby);
    expect(await networks.authenticate('key-one-0123456789')).toEqual({
      networkId: alpha,
      serverId: lobby,
      serverName: 'lobby',
    });
    expect(await networks.authenticate('key-unknown')).toBeUndefined();

    expect(await networks.ensureServer(alpha, 'lobby', 'key-two-0123456789')).toBe(lobby);
    expect(await networks.authenticate('key-one-0123456789')).toBeUndefined();
    expect((await networks.authenticate('key-two-0123456789'))?.serverId).toBe(lobby);
    expect(await networks.serverName(lobby)).toBe('lobby');
    const beta = await networks.ensureNetwork('beta');
    const survival = await networks.ensureServer(alpha, 'survival', 'key-three-0123456789');
    await networks.ensureServer(beta, 'hub', 'key-four-0123456789');
    expect(await networks.serversOf(alpha)).toEqual([
      { id: lobby, name: 'lobby' },
      { id: survival, name: 'survival' },
    ]);
    expect(await networks.networkName(beta)).toBe('beta');
    expect(await networks.listNetworks()).toEqual([
      { id: alpha, name: 'alpha' },
      { id: beta, name: 'beta' },
    ]);
    expect(await networks.serverName(9_999)).toBe('#9999');
  });

  it('records logins: a login without an address keeps the last one, names are found in any case', async () => {
    const { players } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await players.recordLogin(alpha, {
      uuid: NOTCH.toUpperCase(),
      name: 'Notch',
      ip: '203.0.113.7',
      server: 'lobby',
      at: 100,
    });
    await players.recordLogin(alpha, { uuid: NOTCH, name: 'Notch', ip: undefined, server: 'survival', at: 200 });

    expect(await players.find(alpha, NOTCH)).toEqual({
      uuid: NOTCH,
      name: 'Notch',
      lastIp: '203.0.113.7',
      lastServer: 'survival',
      lastLoginAt: 200,
    });
    expect(await players.find(beta, NOTCH)).toBeUndefined();

    // jeb held the name Notch later: the name is his now.
    await players.recordLogin(alpha, { uuid: JEB, name: 'notch', ip: '198.51.100.1', server: 'lobby', at: 300 });
    expect(await players.findByName(alpha, 'NOTCH')).toEqual({ uuid: JEB, name: 'notch' });
    expect(await players.findByName(alpha, 'nobody')).toBeUndefined();

    await players.save(alpha, NOTCH, 'Notch2');
    expect(await players.findName(alpha, NOTCH.toUpperCase())).toBe('Notch2');
    await players.save(beta, JEB, 'jeb_');
    expect(await players.findName(beta, JEB)).toBe('jeb_');
    expect(await players.find(beta, JEB)).toMatchObject({ lastIp: null, lastLoginAt: null });
  });

  it('keeps each address a player used with its first and latest time', async () => {
    const { playerIps } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await playerIps.record(alpha, NOTCH, '203.0.113.7', 100);
    await playerIps.record(alpha, NOTCH.toUpperCase(), '203.0.113.7', 500);
    await playerIps.record(alpha, NOTCH, '203.0.113.7', 300);
    await playerIps.record(alpha, NOTCH, '198.51.100.1', 400);
    await playerIps.record(alpha, JEB, '203.0.113.7', 450);
    await playerIps.record(beta, JEB, '203.0.113.7', 999);

    expect(await playerIps.addressesOf(alpha, NOTCH, 0)).toEqual([
      { ip: '203.0.113.7', firstSeenAt: 100, lastSeenAt: 500 },
      { ip: '198.51.100.1', firstSeenAt: 400, lastSeenAt: 400 },
    ]);
    expect(await playerIps.addressesOf(alpha, NOTCH, 450)).toEqual([
      { ip: '203.0.113.7', firstSeenAt: 100, lastSeenAt: 500 },
    ]);
    const accounts = await playerIps.accountsOn(alpha, '203.0.113.7', 0, 10);
    expect(accounts).toHaveLength(2);
    expect(accounts).toContainEqual({ uuid: JEB, lastSeenAt: 450 });
    expect(await playerIps.accountsOn(alpha, '203.0.113.7', 0, 1)).toHaveLength(1);
    expect(await playerIps.accountsOn(alpha, '203.0.113.7', 480, 10)).toEqual([{ uuid: NOTCH, lastSeenAt: 500 }]);
  });
});
