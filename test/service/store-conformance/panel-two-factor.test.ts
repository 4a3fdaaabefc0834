import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS, useConformanceStorage } from './backends.js';
import { twoNetworks } from './fixtures.js';

const hashOf = (text: string) => createHash('sha256').update(text).digest();
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTHER_SECRET = 'KRUGS4ZANFZSAYJAONSWG4TFOQQQ2345';

describe.each(DIALECTS)('panel two-factor, devices and recovery codes on %s', (dialect) => {
  const storage = useConformanceStorage(dialect);

  async function anAccount(username = 'alice') {
    const { alpha } = await twoNetworks(storage().stores);
    const id = (await storage().stores.panelAccounts.create({
      networkId: alpha,
      username,
      passwordHash: 'h',
      role: 'moderator',
      nowMs: 1_000,
    }))!;
    return { id, alpha };
  }

  it('sets a TOTP secret up, confirms only the one shown, and spends each time step once', async () => {
    const { panelAccounts } = storage().stores;
    const { id } = await anAccount();
    expect(await panelAccounts.totpOf(id)).toEqual({ secret: null, pendingSecret: null, lastStep: null });
    expect(await panelAccounts.totpOf(9_999)).toBeUndefined();

    await panelAccounts.setPendingTotp(id, SECRET, 2_000);
    expect((await panelAccounts.find(id))?.twoFactorEnabled).toBe(false);
    expect(await panelAccounts.confirmTotp(id, OTHER_SECRET, 100, 3_000)).toBe(false);
    expect(await panelAccounts.confirmTotp(id, SECRET, 100, 3_000)).toBe(true);
    expect(await panelAccounts.totpOf(id)).toEqual({ secret: SECRET, pendingSecret: null, lastStep: 100 });
    expect(await panelAccounts.find(id)).toMatchObject({ twoFactorEnabled: true, updatedAt: 3_000 });
    expect((await panelAccounts.findByUsername('alice'))?.twoFactorEnabled).toBe(true);

    // The confirming code's step, and any before it, are spent; a later one once.
    expect(await panelAccounts.useTotpStep(id, SECRET, 100)).toBe(false);
    expect(await panelAccounts.useTotpStep(id, SECRET, 99)).toBe(false);
    expect(await panelAccounts.useTotpStep(id, OTHER_SECRET, 101)).toBe(false);
    const racing = await Promise.all([
      panelAccounts.useTotpStep(id, SECRET, 101),
      panelAccounts.useTotpStep(id, SECRET, 101),
    ]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect((await panelAccounts.totpOf(id))?.lastStep).toBe(101);

    // A second set-up keeps the confirmed secret until its own code confirms it.
    await panelAccounts.setPendingTotp(id, OTHER_SECRET, 4_000);
    expect(await panelAccounts.totpOf(id)).toEqual({ secret: SECRET, pendingSecret: OTHER_SECRET, lastStep: 101 });
    await panelAccounts.setPendingTotp(id, null, 4_500);
    expect((await panelAccounts.totpOf(id))?.pendingSecret).toBeNull();

    await panelAccounts.clearTotp(id, 5_000);
    expect(await panelAccounts.totpOf(id)).toEqual({ secret: null, pendingSecret: null, lastStep: null });
    expect((await panelAccounts.find(id))?.twoFactorEnabled).toBe(false);
    expect(await panelAccounts.useTotpStep(id, SECRET, 500)).toBe(false);
  });

  it('keeps recovery codes by hash, accepts each once, and replaces them all', async () => {
    const { panelRecoveryCodes } = storage().stores;
    const { id } = await anAccount();
    const other = (await anOtherAccount()).id;
    await panelRecoveryCodes.replace(id, [hashOf('a'), hashOf('b'), hashOf('c')], 1_000);
    await panelRecoveryCodes.replace(other, [hashOf('a')], 1_000);
    expect(await panelRecoveryCodes.countUnused(id)).toBe(3);

    const racing = await Promise.all([
      panelRecoveryCodes.use(id, hashOf('a'), 2_000),
      panelRecoveryCodes.use(id, hashOf('a'), 2_000),
    ]);
    expect(racing.filter(Boolean)).toHaveLength(1);
    expect(await panelRecoveryCodes.use(id, hashOf('unknown'), 2_000)).toBe(false);
    expect(await panelRecoveryCodes.countUnused(id)).toBe(2);
    expect(await panelRecoveryCodes.countUnused(other)).toBe(1);

    await panelRecoveryCodes.replace(id, [hashOf('d'), hashOf('e')], 3_000);
    expect(await panelRecoveryCodes.use(id, hashOf('b'), 4_000)).toBe(false);
    expect(await panelRecoveryCodes.countUnused(id)).toBe(2);
    await panelRecoveryCodes.removeAllOf(id);
    expect(await panelRecoveryCodes.countUnused(id)).toBe(0);
    expect(await panelRecoveryCodes.use(other, hashOf('a'), 5_000)).toBe(true);

    async function anOtherAccount() {
      const { alpha } = { alpha: (await storage().stores.networks.findNetwork('alpha'))! };
      return {
        id: (await storage().stores.panelAccounts.create({
          networkId: alpha,
          username: 'bob',
          passwordHash: 'h',
          role: 'viewer',
          nowMs: 1_000,
        }))!,
      };
    }
  });

  it('remembers devices by token hash until they expire, keeps the newest few of an account, and prunes', async () => {
    const { panelDevices } = storage().stores;
    const { id } = await anAccount();
    for (let n = 0; n < 4; n += 1) {
      await panelDevices.remember(hashOf(`device-${n}`), { accountId: id, createdAt: 1_000 + n, expiresAt: 10_000 });
    }
    expect(await panelDevices.find(hashOf('device-0'), 9_999)).toEqual({
      accountId: id,
      createdAt: 1_000,
      expiresAt: 10_000,
    });
    expect(await panelDevices.find(hashOf('device-0'), 10_000)).toBeUndefined();
    expect(await panelDevices.find(hashOf('unknown'), 0)).toBeUndefined();

    await panelDevices.forgetOlder(id, 2);
    expect(await panelDevices.find(hashOf('device-1'), 0)).toBeUndefined();
    expect(await panelDevices.find(hashOf('device-2'), 0)).toBeDefined();
    expect(await panelDevices.find(hashOf('device-3'), 0)).toBeDefined();

    await panelDevices.remember(hashOf('old'), { accountId: id, createdAt: 0, expiresAt: 500 });
    expect(await panelDevices.pruneExpired(600)).toBe(1);
    expect(await panelDevices.pruneExpired(600)).toBe(0);
  });

  it('lists the roles a network requires two-factor of, built-in or custom, and drops it with the role', async () => {
    const { panelRoles } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await panelRoles.save(alpha, { name: 'judge', permissions: ['pardon'] }, 1_000);
    await panelRoles.setTwoFactorRequired(alpha, 'admin', true, 1_000);
    await panelRoles.setTwoFactorRequired(alpha, 'judge', true, 1_000);
    await panelRoles.setTwoFactorRequired(alpha, 'judge', true, 2_000);
    expect(await panelRoles.twoFactorRoles(alpha)).toEqual(['admin', 'judge']);
    expect(await panelRoles.twoFactorRoles(beta)).toEqual([]);
    expect(await panelRoles.isTwoFactorRequired(alpha, 'admin')).toBe(true);
    expect(await panelRoles.isTwoFactorRequired(beta, 'admin')).toBe(false);

    await panelRoles.setTwoFactorRequired(alpha, 'admin', false, 3_000);
    expect(await panelRoles.isTwoFactorRequired(alpha, 'admin')).toBe(false);
    await panelRoles.remove(alpha, 'judge');
    expect(await panelRoles.twoFactorRoles(alpha)).toEqual([]);
    // A new role of the same name starts without the old one's requirement.
    await panelRoles.save(alpha, { name: 'judge', permissions: ['view'] }, 4_000);
    expect(await panelRoles.isTwoFactorRequired(alpha, 'judge')).toBe(false);
  });
});
