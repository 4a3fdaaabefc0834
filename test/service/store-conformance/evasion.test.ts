import { describe, expect, it } from 'vitest';
import { parseIpAddress } from '../../../src/ip/ip-range.js';
import { BACKENDS, useConformanceStorage } from './backends.js';
import { JEB, newPunishment, twoNetworks } from './fixtures.js';

const address = (text: string) => {
  const parsed = parseIpAddress(text);
  if (!parsed) throw new Error(`not an address: ${text}`);
  return parsed;
};

describe.each(BACKENDS)('evasion store on %s', (backend) => {
  const storage = useConformanceStorage(backend);

  it('finds the active IP bans whose address or range holds an address, newest first', async () => {
    const { punishments, evasion } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    const ipBan = (id: string, ipAddress: string, createdAt: number) =>
      punishments.insert(newPunishment(alpha, id, { data: { ipAddress }, createdAt }));
    await ipBan('range24', '203.0.113.0/24', 100);
    await ipBan('exact', '203.0.113.7', 200);
    await ipBan('range16', '203.0.0.0/16', 300);
    await ipBan('elsewhere', '198.51.100.0/24', 400);
    await ipBan('lifted', '203.0.113.0/25', 500);
    await ipBan('v6', '2001:db8::/32', 600);
    await punishments.insert(newPunishment(alpha, 'no-ip', { data: { altBlocking: true } }));
    await punishments.insert(newPunishment(beta, 'other-network', { data: { ipAddress: '203.0.113.0/24' } }));
    await punishments.setStatus(alpha, 'lifted', 'pardoned', 900);

    const ids = async (text: string) => (await evasion.activeIpBansHolding(alpha, address(text))).map((row) => row.id);
    expect(await ids('203.0.113.7')).toEqual(['range16', 'exact', 'range24']);
    expect(await ids('203.0.113.200')).toEqual(['range16', 'range24']);
    expect(await ids('203.0.114.1')).toEqual(['range16']);
    expect(await ids('192.0.2.1')).toEqual([]);
    expect(await ids('2001:db8:1::5')).toEqual(['v6']);
    expect(await ids('2001:db9::5')).toEqual([]);
  });

  it('finds Linked Bans by the ban they were issued for', async () => {
    const { punishments, evasion } = storage().stores;
    const { alpha, beta } = await twoNetworks(storage().stores);
    await punishments.insert(newPunishment(alpha, 'parent', { data: { altBlocking: true } }));
    await punishments.insert(newPunishment(alpha, 'linked-1', { targetUuid: JEB, data: { linkedBanId: 'parent' } }));
    await punishments.insert(newPunishment(alpha, 'linked-2', { data: { linkedBanId: 'parent' } }));
    await punishments.insert(newPunishment(beta, 'linked-beta', { data: { linkedBanId: 'parent' } }));
    await punishments.setStatus(alpha, 'linked-2', 'pardoned', 900);

    expect(await evasion.activeLinkedBans(alpha, 'parent')).toEqual(['linked-1']);
    expect(await evasion.activeLinkedBans(alpha, 'nothing')).toEqual([]);
    expect(await evasion.hasLinkedBan(alpha, 'parent', JEB.toUpperCase())).toBe(true);
    // A lifted Linked Ban still counts: the account was given one.
    expect(await evasion.hasLinkedBan(alpha, 'parent', '069a79f4-44e9-4726-a5be-fca90e38aaf5')).toBe(true);
    expect(await evasion.hasLinkedBan(alpha, 'other-parent', JEB)).toBe(false);
  });
});
