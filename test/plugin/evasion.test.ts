import { describe, expect, it } from 'vitest';
import { ALTS_BYPASS_PERMISSION, alertStaffOfAlts, NOTIFY_ALTS_PERMISSION } from '../../plugin/evasion/alt-alert.js';
import { refuseAltOfBanned } from '../../plugin/evasion/alt-refusal.js';
import { altsSource } from '../../plugin/evasion/alts-source.js';
import { IpRecord } from '../../plugin/evasion/ip-record.js';
import { localLinkedAccounts } from '../../plugin/evasion/local-links.js';
import { OnlineAddresses } from '../../plugin/evasion/online-addresses.js';
import { recordLoginAddress } from '../../plugin/evasion/record-login.js';
import { applyPunishment } from '../../plugin/sync/apply-punishment.js';
import { ApiError, isApiError } from '../../src/api/errors.js';
import { ExtensionSupport } from '../../src/api/extension-support.js';
import type { LinkedAccountsResponse } from '../../src/contract/schemas.js';
import { PreLoginEventImpl } from '../../src/runtime/pre-login.js';
import { ALICE, BOB, fakePlayer, servicePunishment } from './helpers/fakes.js';
import { enforcementHarness } from './helpers/harness.js';

const CAROL = '33333333-3333-4333-8333-333333333333';
const DAVE = '44444444-4444-4444-8444-444444444444';
const DAY_MS = 24 * 3_600_000;
const settings = { sharedIpThreshold: 3, keepMs: 90 * DAY_MS, alerts: true, refuseAltsOfBanned: true };

function evasionHarness(online = [fakePlayer(CAROL, 'Carol')]) {
  const h = enforcementHarness(online);
  const record = new IpRecord(h.db);
  const seen = (uuid: string, name: string, ip: string) => record.record(uuid, name, ip, h.clock.now());
  return { ...h, record, seen };
}

describe("this server's record of addresses and the accounts it links", () => {
  it('links accounts seen on one address, most recent first, and ignores addresses above the threshold', () => {
    const h = evasionHarness();
    h.seen(ALICE, 'Alice', '203.0.113.7');
    h.clock.jump(1000);
    h.seen(BOB, 'Bob', '203.0.113.7');
    h.seen(ALICE, 'Alice', '2001:db8::1');
    h.clock.jump(1000);
    h.seen(CAROL, 'Carol', '2001:db8::1');
    expect(localLinkedAccounts(h.record, settings, ALICE, h.clock.now()).map((account) => account.name)).toEqual([
      'Carol',
      'Bob',
    ]);

    for (const [uuid, name] of [
      [CAROL, 'Carol'],
      [DAVE, 'Dave'],
    ] as const) {
      h.seen(uuid, name, '203.0.113.7');
    }
    // Four accounts on 203.0.113.7 (threshold 3): only the IPv6 address links Alice now.
    const linked = localLinkedAccounts(h.record, settings, ALICE, h.clock.now());
    expect(linked.map((account) => [account.name, account.sharedIps.map((shared) => shared.ip)])).toEqual([
      ['Carol', ['2001:db8::1']],
    ]);
  });

  it('counts the address of a join not yet recorded, and forgets addresses older than the kept period', () => {
    const h = evasionHarness();
    h.seen(ALICE, 'Alice', '203.0.113.7');
    expect(localLinkedAccounts(h.record, settings, BOB, h.clock.now(), '203.0.113.7')[0]?.name).toBe('Alice');
    h.clock.jump(91 * DAY_MS);
    expect(localLinkedAccounts(h.record, settings, BOB, h.clock.now(), '203.0.113.7')).toEqual([]);
    expect(h.record.prune(h.clock.now() - settings.keepMs)).toBe(1);
    expect(h.record.addressCount()).toBe(0);
  });

  it('records the address of every login after the decision, canonical, and keeps it while the player is online', () => {
    const h = evasionHarness();
    const addresses = new OnlineAddresses(h.players);
    const refused = new PreLoginEventImpl(ALICE, 'Alice', '::ffff:203.0.113.7');
    refused.deny('banned');
    recordLoginAddress(h.record, addresses, refused, h.clock.now());
    recordLoginAddress(h.record, addresses, new PreLoginEventImpl(CAROL, 'Carol', '203.0.113.7'), h.clock.now());
    recordLoginAddress(h.record, addresses, new PreLoginEventImpl(DAVE, 'Dave', undefined), h.clock.now());
    expect(h.record.accountsOn('203.0.113.7', 0).map((account) => account.name)).toEqual(['Alice', 'Carol']);
    expect(addresses.addressOf(ALICE)).toBeUndefined();
    addresses.joined(CAROL);
    expect(addresses.onlineIn('203.0.113.0/24').map((player) => player.name)).toEqual(['Carol']);
    addresses.quit(CAROL);
    expect(addresses.onlineIn('203.0.113.0/24')).toEqual([]);
  });
});

describe('staff alert at join', () => {
  function alertHarness(alerts = true) {
    const staff = fakePlayer(BOB, 'Staff');
    staff.permissions.add(NOTIFY_ALTS_PERMISSION);
    const plain = fakePlayer(DAVE, 'Plain');
    const joining = fakePlayer(CAROL, 'Carol');
    const h = evasionHarness([staff, plain, joining]);
    const consoleLines: string[] = [];
    const alert = () =>
      alertStaffOfAlts(
        {
          record: h.record,
          cache: h.cache,
          audience: {
            online: () => h.players.online(),
            console: {
              kind: 'console',
              name: 'CONSOLE',
              sendMessage: (line) => consoleLines.push(line),
              hasPermission: () => true,
            },
          },
          messages: () => h.messages,
          settings: () => ({ ...settings, alerts }),
          now: h.clock.now,
        },
        joining,
      );
    return { ...h, staff, plain, joining, consoleLines, alert };
  }

  it('tells notify.alts holders and the console, not plain players, and never the address', () => {
    const h = alertHarness();
    h.seen(ALICE, 'Alice', '203.0.113.7');
    h.seen(CAROL, 'Carol', '203.0.113.7');
    applyPunishment(h.context, servicePunishment({ targetUuid: ALICE, targetName: 'Alice' }));
    applyPunishment(h.context, servicePunishment({ id: 'mute', targetUuid: ALICE, typeOrdinal: 6 }));

    const line = h.alert();
    expect(line).toBe('&7[Bailiff] &fCarol&7 shares an address with &fAlice (banned, muted)');
    expect(h.staff.messages).toEqual([line]);
    expect(h.consoleLines).toEqual([line]);
    expect(h.plain.messages).toEqual([]);
    expect(line).not.toContain('203.0.113.7');
  });

  it('says nothing for a clean linked account, a bypass holder, or with alerts off', () => {
    const h = alertHarness();
    h.seen(ALICE, 'Alice', '203.0.113.7');
    h.seen(CAROL, 'Carol', '203.0.113.7');
    expect(h.alert()).toBeUndefined();
    applyPunishment(h.context, servicePunishment({ targetUuid: ALICE }));
    h.joining.permissions.add(ALTS_BYPASS_PERMISSION);
    expect(h.alert()).toBeUndefined();
    const off = alertHarness(false);
    off.seen(ALICE, 'Alice', '203.0.113.7');
    off.seen(CAROL, 'Carol', '203.0.113.7');
    applyPunishment(off.context, servicePunishment({ targetUuid: ALICE }));
    expect(off.alert()).toBeUndefined();
    expect(h.staff.messages).toEqual([]);
  });
});

describe('evasion.refuseAltsOfBanned', () => {
  function refusal(on: boolean, bypass: string[] = []) {
    const h = evasionHarness();
    const decide = (uuid: string, name: string, ip: string) => {
      const event = new PreLoginEventImpl(uuid, name, ip);
      refuseAltOfBanned(
        {
          context: h.context,
          record: h.record,
          permissions: { has: (sender, node) => node === ALTS_BYPASS_PERMISSION && bypass.includes(sender.name) },
          settings: () => ({ ...settings, refuseAltsOfBanned: on }),
        },
        event,
      );
      return event;
    };
    return { ...h, decide };
  }

  it("refuses an account on a banned account's address with the linked-ban screen of that ban", () => {
    const h = refusal(true);
    h.seen(ALICE, 'Alice', '203.0.113.7');
    applyPunishment(h.context, servicePunishment({ targetUuid: ALICE, reason: 'x-ray' }));
    const event = h.decide(BOB, 'Bob', '203.0.113.7');
    expect(event.denied).toBe(true);
    expect(event.denyMessage).toContain('This account is linked to a banned account.');
    expect(event.denyMessage).toContain('x-ray');
    expect(h.decide(BOB, 'Bob', '203.0.113.8').denied).toBe(false);
  });

  it('is off by default, and spares bypass holders and addresses above the threshold', () => {
    const off = refusal(false);
    off.seen(ALICE, 'Alice', '203.0.113.7');
    applyPunishment(off.context, servicePunishment({ targetUuid: ALICE }));
    expect(off.decide(BOB, 'Bob', '203.0.113.7').denied).toBe(false);

    const h = refusal(true, ['Bob']);
    h.seen(ALICE, 'Alice', '203.0.113.7');
    applyPunishment(h.context, servicePunishment({ targetUuid: ALICE }));
    expect(h.decide(BOB, 'Bob', '203.0.113.7').denied).toBe(false);
    h.seen(CAROL, 'Carol', '203.0.113.7');
    h.seen(DAVE, 'Dave', '203.0.113.7');
    expect(h.decide('55555555-5555-4555-8555-555555555555', 'Eve', '203.0.113.7').denied).toBe(false);
  });
});

describe('/alts source', () => {
  const REPROBE_AFTER_MS = 600_000;
  /** A client that records calls and, as the real one does, remembers a 404 in its extension record. */
  function sourceHarness(linkedAccounts: () => Promise<LinkedAccountsResponse>) {
    const h = evasionHarness();
    const calls: unknown[] = [];
    const extensions = new ExtensionSupport({ reprobeAfterMs: REPROBE_AFTER_MS });
    const source = altsSource({
      client: {
        extensions,
        linkedAccounts: async (...args) => {
          calls.push(args);
          try {
            return await linkedAccounts();
          } catch (error) {
            if (isApiError(error) && error.status === 404) extensions.markMissing('linkedAccounts', h.clock.now());
            throw error;
          }
        },
      },
      record: h.record,
      cache: h.cache,
      settings: () => settings,
      clock: h.clock,
      logger: h.logger,
    });
    return { ...h, source, calls };
  }
  const notFound = () =>
    Promise.reject(new ApiError({ kind: 'http', endpoint: 'linkedAccounts', status: 404, message: '404' }));

  it("maps the service's answer: shared addresses and whether each account is banned or muted now", async () => {
    const h = sourceHarness(async () => ({
      success: true,
      page: 1,
      pageSize: 10,
      total: 1,
      accounts: [
        {
          uuid: BOB.toUpperCase(),
          name: 'Bob',
          sharedIps: [{ ipAddress: '203.0.113.7', lastSeenAt: '2026-01-01T00:00:00.000Z' }],
          activePunishments: [
            servicePunishment({ targetUuid: BOB, typeOrdinal: 6 }),
            servicePunishment({ id: 'over', targetUuid: BOB, duration: 1000, started: '2025-01-01T00:00:00.000Z' }),
          ],
        },
      ],
    }));
    const page = await h.source.linkedAccounts({ uuid: ALICE, name: 'Alice' }, 1, 10);
    expect(page).toEqual({
      source: 'service',
      total: 1,
      accounts: [
        {
          uuid: BOB,
          name: 'Bob',
          sharedIps: [{ ip: '203.0.113.7', lastSeenAt: Date.parse('2026-01-01T00:00:00.000Z') }],
          banned: false,
          muted: true,
        },
      ],
    });
    expect(h.calls).toEqual([[{ uuid: ALICE, query: { page: 1, pageSize: 10 } }]]);
  });

  it("falls back to this server's record on a 404 (remembered until the reprobe) and while unreachable", async () => {
    let answer = notFound;
    const h = sourceHarness(() => answer());
    h.seen(ALICE, 'Alice', '203.0.113.7');
    h.seen(BOB, 'Bob', '203.0.113.7');
    applyPunishment(h.context, servicePunishment({ targetUuid: BOB }));
    const alice = { uuid: ALICE, name: 'Alice' };

    expect(await h.source.linkedAccounts(alice, 1, 10)).toMatchObject({
      source: 'local',
      fallback: 'not-offered',
      total: 1,
      accounts: [{ name: 'Bob', banned: true, muted: false, sharedIps: [{ ip: '203.0.113.7' }] }],
    });
    await h.source.linkedAccounts(alice, 1, 10);
    expect(h.calls).toHaveLength(1);

    h.clock.jump(REPROBE_AFTER_MS);
    answer = () => Promise.reject(new ApiError({ kind: 'network', endpoint: 'linkedAccounts', message: 'down' }));
    expect(await h.source.linkedAccounts(alice, 1, 10)).toMatchObject({ source: 'local', fallback: 'unreachable' });
    expect(h.calls).toHaveLength(2);
  });

  it('throws any other refusal for the command to report', async () => {
    const h = sourceHarness(() =>
      Promise.reject(new ApiError({ kind: 'http', endpoint: 'linkedAccounts', status: 400, message: 'bad' })),
    );
    await expect(h.source.linkedAccounts({ uuid: ALICE, name: 'Alice' }, 1, 10)).rejects.toMatchObject({ status: 400 });
  });
});
