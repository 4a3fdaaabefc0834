import { describe, expect, it } from 'vitest';
import { fromServicePunishment } from '../../plugin/cache/cached-punishment.js';
import { IpIndex } from '../../plugin/cache/ip-index.js';
import { PunishmentCache } from '../../plugin/cache/punishment-cache.js';
import { onPreLogin } from '../../plugin/enforcement/pre-login.js';
import { OnlineAddresses } from '../../plugin/evasion/online-addresses.js';
import { adoptLocal } from '../../plugin/sync/adopt-local.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { ADDRESS_ONLY_TARGET } from '../../src/contract/evasion-data.js';
import { parseIpRange } from '../../src/ip/ip-range.js';
import type { PreLoginEvent } from '../../src/runtime/plugin-api.js';
import { ALICE, BOB, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

const CAROL = '33333333-3333-4333-8333-333333333333';
const range = (text: string) => parseIpRange(text)!;

function preLogin(uuid: string, ip: string | undefined): PreLoginEvent & { denied: boolean } {
  const event = {
    uuid,
    name: 'Someone',
    ip,
    denied: false,
    denyMessage: undefined as string | undefined,
    deny(message: string) {
      event.denied = true;
      event.denyMessage = message;
    },
  };
  return event;
}

describe('IpIndex', () => {
  it('matches an address by the most specific banned address or range running now', () => {
    const index = new IpIndex();
    index.replace(range('198.51.100.0/24'), 2000);
    index.replace(range('198.51.100.7'), 1000);
    index.replace(range('2001:db8::/32'), Number.POSITIVE_INFINITY);
    expect(index.match('198.51.100.7', 500)).toBe('198.51.100.7');
    expect(index.match('198.51.100.7', 1500)).toBe('198.51.100.0/24');
    expect(index.match('198.51.100.9', 1500)).toBe('198.51.100.0/24');
    expect(index.match('198.51.100.9', 2500)).toBeUndefined();
    expect(index.match('198.51.101.1', 0)).toBeUndefined();
    expect(index.match('::ffff:198.51.100.3', 0)).toBe('198.51.100.0/24');
    expect(index.match('2001:db8:5::1', 0)).toBe('2001:db8::/32');
    expect(index.match('2001:db9::1', 0)).toBeUndefined();
    expect(index.match('not an address', 0)).toBeUndefined();
    expect(index.size).toBe(3);
  });

  it('keeps the later end on extend, forgets on replace with nothing, and covers everything with /0', () => {
    const index = new IpIndex();
    index.extend(range('10.0.0.1'), 1000);
    index.extend(range('10.0.0.1'), 500);
    expect(index.match('10.0.0.1', 900)).toBe('10.0.0.1');
    index.replace(range('10.0.0.1'), undefined);
    expect(index.match('10.0.0.1', 0)).toBeUndefined();
    expect(index.size).toBe(0);
    index.replace(range('0.0.0.0/0'), 10);
    expect(index.match('255.255.255.255', 0)).toBe('0.0.0.0/0');
  });
});

describe('IP bans in the cache and at pre-login', () => {
  it('refuses every account from a banned address or range with the IP-ban screen, never naming the address', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment({ id: 'ip-1', reason: 'alts', data: { ipAddress: '203.0.113.7' } }));
    applyPunishment(
      h.context,
      servicePunishment({ id: 'ip-2', targetUuid: ADDRESS_ONLY_TARGET, data: { ipAddress: '198.51.100.77/24' } }),
    );

    for (const [uuid, ip] of [
      [BOB, '203.0.113.7'],
      [CAROL, '198.51.100.1'],
    ] as const) {
      const event = preLogin(uuid, ip);
      onPreLogin(h.context, event);
      expect(event.denied).toBe(true);
      expect(event.denyMessage).toContain('(IP ban)');
      expect(event.denyMessage).not.toContain(ip);
    }
    for (const ip of ['203.0.113.8', '198.51.101.1', undefined]) {
      const event = preLogin(CAROL, ip);
      onPreLogin(h.context, event);
      expect(event.denied).toBe(false);
    }
    expect(h.cache.get('ip-2')?.ipAddress).toBe('198.51.100.0/24');
    expect(h.cache.indexedAddressCount).toBe(2);
  });

  it('lets everyone in once the IP ban is pardoned, and after a restart rebuilds the address index from SQLite', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment({ id: 'ip-1', data: { ipAddress: '203.0.113.0/28' } }));
    const reloaded = new PunishmentCache(h.db, h.context.policy().enforcedAs);
    reloaded.load();
    expect(reloaded.activeIpBan('203.0.113.9', h.clock.now())?.id).toBe('ip-1');

    applyPunishment(
      h.context,
      servicePunishment({ id: 'ip-1', status: 'pardoned', data: { ipAddress: '203.0.113.0/28' } }),
    );
    expect(h.cache.activeIpBan('203.0.113.9', h.clock.now())).toBeUndefined();
    reloaded.load();
    expect(reloaded.activeIpBan('203.0.113.9', h.clock.now())).toBeUndefined();
  });

  it('keeps the address when the service copy comes back without data (a contract-only `recent`)', () => {
    const h = enforcementHarness();
    applyPunishment(
      h.context,
      servicePunishment({ id: 'ip-1', data: { ipAddress: '203.0.113.7', altBlocking: true } }),
    );
    applyPunishment(h.context, servicePunishment({ id: 'ip-1', started: '2026-01-01T00:00:05.000Z' }));
    expect(h.cache.get('ip-1')).toMatchObject({ ipAddress: '203.0.113.7', altBlocking: true });
    expect(h.cache.activeIpBan('203.0.113.7', h.clock.now())?.id).toBe('ip-1');
  });

  it("keeps the address of a ban issued here under a local id when the service's copy takes its place", () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment({ id: 'local-1', data: { ipAddress: '203.0.113.7' } }));
    const local = h.cache.get('local-1')!;
    adoptLocal(h.context, local, fromServicePunishment(servicePunishment({ id: 'svc-1' })));
    expect(h.cache.get('svc-1')?.ipAddress).toBe('203.0.113.7');
    expect(h.cache.activeIpBan('203.0.113.7', h.clock.now())?.id).toBe('svc-1');
  });

  it('kicks every online player on the address when an IP ban arrives, with the IP-ban screen', () => {
    const onAddress = fakePlayer(BOB, 'Bob');
    const elsewhere = fakePlayer(CAROL, 'Carol');
    const h = enforcementHarness([onAddress, elsewhere]);
    const addresses = new OnlineAddresses(h.players);
    for (const [player, ip] of [
      [onAddress, '198.51.100.20'],
      [elsewhere, '192.0.2.1'],
    ] as const) {
      addresses.loggingIn(player.uuid, ip);
      addresses.joined(player.uuid);
    }
    h.context.addresses = addresses;

    applyPunishment(h.context, servicePunishment({ targetUuid: ALICE, data: { ipAddress: '198.51.100.0/24' } }));

    expect(onAddress.kickedWith).toContain('(IP ban)');
    expect(elsewhere.kickedWith).toBeUndefined();
    expect(h.cache.get('p-1')).toMatchObject({ acknowledged: true, notified: true });
  });

  it('spares holders of bailiff.ipban.bypass: not refused at pre-login nor kicked online; a ban of their own account still applies', () => {
    const op = fakePlayer(BOB, 'Bob');
    const player = fakePlayer(CAROL, 'Carol');
    const h = enforcementHarness([op, player]);
    const addresses = new OnlineAddresses(h.players);
    for (const online of [op, player]) {
      addresses.loggingIn(online.uuid, '198.51.100.20');
      addresses.joined(online.uuid);
    }
    h.context.addresses = addresses;
    h.context.bypassesIpBans = ({ uuid }) => uuid === BOB;

    applyPunishment(
      h.context,
      servicePunishment({ id: 'ip-1', targetUuid: ADDRESS_ONLY_TARGET, data: { ipAddress: '198.51.100.0/24' } }),
    );
    expect(op.kickedWith).toBeUndefined();
    expect(player.kickedWith).toContain('(IP ban)');

    const opJoins = preLogin(BOB, '198.51.100.20');
    onPreLogin(h.context, opJoins);
    expect(opJoins.denied).toBe(false);
    const playerJoins = preLogin(CAROL, '198.51.100.21');
    onPreLogin(h.context, playerJoins);
    expect(playerJoins.denied).toBe(true);

    applyPunishment(h.context, servicePunishment({ id: 'ip-2', targetUuid: BOB, data: { ipAddress: '192.0.2.1' } }));
    const bannedOp = preLogin(BOB, '203.0.113.50');
    onPreLogin(h.context, bannedOp);
    expect(bannedOp.denied).toBe(true);
  });

  it('shows the linked-ban screen for a Linked Ban (ordinal 4)', () => {
    const h = enforcementHarness();
    applyPunishment(h.context, servicePunishment({ typeOrdinal: 4, issuerName: 'System', data: { linkedBanId: 'x' } }));
    const event = preLogin(ALICE, '192.0.2.1');
    onPreLogin(h.context, event);
    expect(event.denyMessage).toContain('This account is linked to a banned account.');
  });
});
