import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, useConformanceStorage } from './backends.js';
import { twoNetworks } from './fixtures.js';

const hashOf = (sessionId: string) => createHash('sha256').update(sessionId).digest();

describe.each(DIALECTS)('panel stores on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  it('keeps usernames unique in any case, across networks, and lists a network with the superusers', async () => {
    const { panelAccounts } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const account = (networkId: number | null, username: string, role = 'moderator') =>
      panelAccounts.create({ networkId, username, passwordHash: `hash-${username}`, role, nowMs: 1_000 });
    const root = await account(null, 'Root', 'superuser');
    const alice = await account(alpha, 'alice');
    const bob = await account(alpha, 'Bob', 'admin');
    await account(beta, 'carol');
    expect(root).toBeTypeOf('number');
    expect(await account(beta, 'ALICE')).toBeUndefined();

    expect(await panelAccounts.findByUsername('bob')).toEqual({
      id: bob,
      networkId: alpha,
      username: 'Bob',
      passwordHash: 'hash-Bob',
      role: 'admin',
      disabled: false,
      twoFactorEnabled: false,
      createdAt: 1_000,
      updatedAt: 1_000,
    });
    expect((await panelAccounts.find(alice!))?.username).toBe('alice');
    expect(await panelAccounts.find(9_999)).toBeUndefined();
    expect((await panelAccounts.ofNetworkAndSuperusers(alpha)).map((row) => row.username)).toEqual([
      'alice',
      'Bob',
      'Root',
    ]);
  });

  it("changes an account's role, state and password, and counts a role's holders in a network", async () => {
    const { panelAccounts } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const id = (await panelAccounts.create({
      networkId: alpha,
      username: 'alice',
      passwordHash: 'old',
      role: 'helper',
      nowMs: 1_000,
    }))!;
    await panelAccounts.create({ networkId: beta, username: 'dave', passwordHash: 'h', role: 'helper', nowMs: 1_000 });
    expect(await panelAccounts.countWithRole(alpha, 'helper')).toBe(1);

    await panelAccounts.setRole(id, 'moderator', 2_000);
    await panelAccounts.setDisabled(id, true, 3_000);
    await panelAccounts.setPassword(id, 'new', 4_000);
    expect(await panelAccounts.find(id)).toMatchObject({
      role: 'moderator',
      disabled: true,
      passwordHash: 'new',
      updatedAt: 4_000,
    });
    expect(await panelAccounts.countWithRole(alpha, 'helper')).toBe(0);
    expect(await panelAccounts.countWithRole(alpha, 'moderator')).toBe(1);
    await panelAccounts.setDisabled(id, false, 5_000);
    expect((await panelAccounts.find(id))?.disabled).toBe(false);
  });

  it('saves custom roles per network, replacing permissions, and removes them', async () => {
    const { panelRoles } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await panelRoles.save(alpha, { name: 'trial', permissions: ['punishments.view'] }, 1_000);
    await panelRoles.save(alpha, { name: 'senior', permissions: ['punishments.create'] }, 1_000);
    await panelRoles.save(alpha, { name: 'trial', permissions: ['punishments.view', 'tickets.view'] }, 2_000);
    await panelRoles.save(beta, { name: 'other', permissions: [] }, 1_000);

    expect(await panelRoles.list(alpha)).toEqual([
      { name: 'senior', permissions: ['punishments.create'] },
      { name: 'trial', permissions: ['punishments.view', 'tickets.view'] },
    ]);
    expect(await panelRoles.find(beta, 'trial')).toBeUndefined();
    await panelRoles.remove(alpha, 'trial');
    expect((await panelRoles.list(alpha)).map((role) => role.name)).toEqual(['senior']);
  });

  it('finds a session by its hash until it expires, switches its network and ends it', async () => {
    const { panelAccounts, panelSessions } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const accountId = (await panelAccounts.create({
      networkId: null,
      username: 'root',
      passwordHash: 'h',
      role: 'superuser',
      nowMs: 0,
    }))!;
    const session = { accountId, networkId: alpha, createdAt: 1_000, expiresAt: 5_000, stage: 'full' as const };
    await panelSessions.create(hashOf('one'), session);
    await panelSessions.create(hashOf('two'), { ...session, expiresAt: 2_000 });
    await panelSessions.create(hashOf('three'), { ...session, expiresAt: 3_000, stage: 'code' });

    expect(await panelSessions.find(hashOf('one'), 4_999)).toEqual(session);
    expect((await panelSessions.find(hashOf('three'), 2_999))?.stage).toBe('code');
    expect(await panelSessions.find(hashOf('one'), 5_000)).toBeUndefined();
    expect(await panelSessions.find(hashOf('unknown'), 0)).toBeUndefined();
    await panelSessions.switchNetwork(hashOf('one'), beta);
    expect((await panelSessions.find(hashOf('one'), 0))?.networkId).toBe(beta);

    expect(await panelSessions.pruneExpired(2_500)).toBe(1);
    await panelSessions.remove(hashOf('three'));
    expect(await panelSessions.find(hashOf('three'), 0)).toBeUndefined();
    await panelSessions.removeAllOf(accountId);
    expect(await panelSessions.find(hashOf('one'), 0)).toBeUndefined();
  });

  it('pages the audit log of a network newest first', async () => {
    const { auditLog } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    for (let n = 0; n < 5; n += 1) {
      await auditLog.record({
        networkId: alpha,
        actor: 'alice',
        via: 'panel',
        action: 'punishment.create',
        subject: `p${n}`,
        ...(n === 4 ? { detail: { reason: 'spam', typeOrdinal: 2 } } : {}),
        atMs: 1_000 + n,
      });
    }
    await auditLog.record({ networkId: beta, actor: 'admin token', via: 'admin', action: 'network.create', atMs: 9 });

    const first = await auditLog.newest(alpha, 2);
    expect(first).toEqual([
      {
        id: first[0]!.id,
        networkId: alpha,
        actor: 'alice',
        via: 'panel',
        action: 'punishment.create',
        subject: 'p4',
        detail: { reason: 'spam', typeOrdinal: 2 },
        atMs: 1_004,
      },
      expect.objectContaining({ subject: 'p3', detail: null }),
    ]);
    const next = await auditLog.newest(alpha, 10, first[1]!.id);
    expect(next.map((entry) => entry.subject)).toEqual(['p2', 'p1', 'p0']);
    expect(await auditLog.newest(beta, 10)).toEqual([expect.objectContaining({ subject: null, actor: 'admin token' })]);
  });
});
