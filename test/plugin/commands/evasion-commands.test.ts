import { afterEach, describe, expect, it } from 'vitest';
import { altsCommand } from '../../../plugin/commands/alts.js';
import { showStatus } from '../../../plugin/commands/bailiff-status.js';
import { ipBanCommand, ipUnbanCommand } from '../../../plugin/commands/ip-bans.js';
import { moderationCommand } from '../../../plugin/commands/moderation.js';
import type { AltsPage } from '../../../plugin/evasion/alts-source.js';
import type { EvasionLookups } from '../../../plugin/evasion/evasion.js';
import { ADDRESS_ONLY_TARGET } from '../../../src/contract/evasion-data.js';
import { ALEX, NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError, unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let deps: TestDeps;
afterEach(() => deps?.db.close());

const STEVES_ADDRESS = '203.0.113.7';

function serviceUp(evasion: Partial<EvasionLookups> = {}, api: Parameters<typeof testDeps>[0] = {}): TestDeps {
  let next = 0;
  const made = testDeps({
    ...api,
    api: {
      createPunishmentDynamic: async () => ({ punishmentId: `p-${++next}`, message: 'created' }),
      pardonPunishment: async () => ({ success: true, message: 'pardoned' }),
      ...api.api,
    },
  });
  made.evasion = {
    lastAddressOf: (uuid) => (uuid === STEVE.uuid ? STEVES_ADDRESS : undefined),
    linkedAccounts: async () => ({ source: 'local', accounts: [], total: 0 }),
    ...evasion,
  };
  return made;
}

const staff = (permissions = ['*']) => fakeSender({ kind: 'player', name: 'Mod', permissions });
const created = () =>
  deps.client.calls.filter((call) => call.method === 'createPunishmentDynamic').map((call) => call.args[0]);

describe('/ban -ab', () => {
  it('creates an alt-blocking ban (data.altBlocking) and says so; -ab is taken anywhere and not part of the reason', async () => {
    deps = serviceUp();
    const sender = staff();
    await moderationCommand(deps, 'ban', undefined).execute({ sender, label: 'ban', args: ['Steve', '-AB', 'alts'] });
    expect(created()).toEqual([
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 2,
        issuerName: 'Mod',
        issuerWeight: 100,
        duration: -1,
        reason: 'alts',
        data: { altBlocking: true },
      },
    ]);
    expect(plain(sender.messages)).toEqual(['Banned Steve permanently (alt-blocking). Punishment ID: p-1']);
    expect(deps.cache.get('p-1')?.altBlocking).toBe(true);
    const completion = moderationCommand(deps, 'tempban', undefined).tabComplete?.({
      sender,
      label: 'tempban',
      args: ['Steve', '1d', '-a'],
    });
    expect(completion).toEqual(['-ab']);
    await moderationCommand(deps, 'mute', undefined).execute({ sender, label: 'mute', args: ['Steve', '-ab'] });
    expect(created()[1]).toMatchObject({ reason: '-ab' });
    expect(created()[1]).not.toHaveProperty('data');
  });
});

describe('/ban-ip, /tempipban', () => {
  const banIp = async (args: string[], sender = staff(), duration: 'optional' | 'required' = 'optional') => {
    await ipBanCommand(deps, duration).execute({ sender, label: 'ban-ip', args });
    return sender;
  };

  it("bans a player's last address: the player is the target, data.ipAddress the address, never told without bailiff.alts.ip", async () => {
    deps = serviceUp();
    const sender = await banIp(['Steve', '7d', 'alts'], staff(['bailiff.ban.ip']));
    expect(created()).toEqual([
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 2,
        issuerName: 'Mod',
        duration: 7 * 86_400_000,
        reason: 'alts',
        data: { ipAddress: STEVES_ADDRESS },
      },
    ]);
    expect(plain(sender.messages)).toEqual(['IP-banned the address of Steve for 7d. Punishment ID: p-1']);
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod IP-banned Steve for 7d: alts']);
    expect(deps.cache.activeIpBan('203.0.113.7', NOW)?.id).toBe('p-1');

    const seer = await banIp(['Steve'], staff(['bailiff.ban.ip', 'bailiff.alts.ip']));
    expect(plain(seer.messages)).toEqual([
      'IP-banned the address of Steve (203.0.113.7) permanently. Punishment ID: p-2',
    ]);
  });

  it('refuses a range broader than evasion.ipBanMinPrefixV4/V6 (default /16 and /48), naming the setting, and sends nothing', async () => {
    deps = serviceUp();
    for (const range of ['0.0.0.0/0', '10.0.0.0/15', '::/0', '2001:db8::/47']) {
      const sender = await banIp([range]);
      const setting = range.includes(':') ? 'evasion.ipBanMinPrefixV6' : 'evasion.ipBanMinPrefixV4';
      expect(plain(sender.messages)).toEqual([expect.stringContaining(`(config.yml ${setting})`)]);
      expect(plain(sender.messages)[0]).toContain(`Not banned: ${range} is broader than a /`);
    }
    expect(created()).toEqual([]);
    expect(deps.cache.activeIpBan('10.1.2.3', NOW)).toBeUndefined();

    await banIp(['10.0.0.0/16']);
    await banIp(['2001:db8::/48']);
    expect(created().map((body) => (body as { data: unknown }).data)).toEqual([
      { ipAddress: '10.0.0.0/16' },
      { ipAddress: '2001:db8::/48' },
    ]);
  });

  it('takes the narrowest allowed prefix from the settings', async () => {
    deps = serviceUp({ ipBanPrefixLimits: () => ({ ipv4: 24, ipv6: 64 }) });
    const sender = await banIp(['198.51.100.0/23']);
    expect(plain(sender.messages)[0]).toContain('broader than a /24');
    expect(created()).toEqual([]);
  });

  it('bans an address or a CIDR range, canonical, with no account (the nil UUID)', async () => {
    deps = serviceUp();
    const sender = await banIp(['198.51.100.77/24', '-s', 'botnet']);
    expect(created()).toEqual([
      {
        targetUuid: ADDRESS_ONLY_TARGET,
        typeOrdinal: 2,
        issuerName: 'Mod',
        issuerWeight: 100,
        duration: -1,
        reason: 'botnet',
        data: { ipAddress: '198.51.100.0/24' },
      },
    ]);
    expect(plain(sender.messages)).toEqual(['IP-banned 198.51.100.0/24 permanently. Punishment ID: p-1']);
    expect(deps.staffLines).toEqual([]);
    expect(deps.cache.activeIpBan('198.51.100.3', NOW)?.id).toBe('p-1');
    await banIp(['2001:DB8::1', '1h'], sender, 'required');
    expect(created()[1]).toMatchObject({ duration: 3_600_000, data: { ipAddress: '2001:db8::1' } });
  });

  it('names a malformed address, a player with no known address, and a missing duration; creates nothing', async () => {
    deps = serviceUp();
    const sender = staff();
    await banIp(['198.51.100.300'], sender);
    await banIp(['10.0.0.0/40'], sender);
    await banIp(['Alex'], sender);
    await banIp(['Nobody'], sender);
    await banIp(['198.51.100.1', 'soon'], sender, 'required');
    expect(plain(sender.messages)).toEqual([
      'Not an address or range: 198.51.100.300 (must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24).',
      'Not an address or range: 10.0.0.0/40 (must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24).',
      'No address is known for Alex: they have not joined this server in the kept period.',
      'Unknown player Nobody: not online and never seen on this server.',
      'Bad duration soon: use a number and a unit (s, m, h, d, w, mo, y), like 30m, 7d or 1d12h.',
    ]);
    expect(created()).toEqual([]);
  });

  it('applies the IP ban here at once and queues it while the service is unreachable', async () => {
    deps = testDeps({ api: { createPunishmentDynamic: unreachable('createPunishmentDynamic') } });
    deps.evasion = { ...deps.evasion, lastAddressOf: () => STEVES_ADDRESS };
    await banIp(['Steve', 'x']);
    expect(deps.outboxRows()).toMatchObject([
      {
        operation: 'createPunishmentDynamic',
        payload: { targetUuid: STEVE.uuid, data: { ipAddress: STEVES_ADDRESS } },
      },
    ]);
    expect(deps.cache.activeIpBan(STEVES_ADDRESS, NOW)?.punishment.id).toMatch(/^local-/);
  });

  it('tells the refusal of a service that does not take address-only bans', async () => {
    deps = serviceUp(
      {},
      {
        api: {
          createPunishmentDynamic: () =>
            Promise.reject(
              apiError('http', 'createPunishmentDynamic', { status: 404, serviceMessage: 'target player not found' }),
            ),
        },
      },
    );
    const sender = await banIp(['192.0.2.1']);
    expect(plain(sender.messages)).toEqual(['The moderation service refused (IP ban, 404): target player not found']);
    expect(deps.cache.activeIpBan('192.0.2.1', NOW)).toBeUndefined();
  });
});

describe('/unban-ip', () => {
  const unbanIp = async (args: string[], sender = staff()) => {
    await ipUnbanCommand(deps).execute({ sender, label: 'unban-ip', args });
    return sender;
  };

  it('pardons the running IP bans of an address, or of a player and their address, and lifts them here', async () => {
    deps = serviceUp();
    await ipBanCommand(deps, 'optional').execute({ sender: staff(), label: 'ban-ip', args: ['Steve'] });
    await ipBanCommand(deps, 'optional').execute({ sender: staff(), label: 'ban-ip', args: ['203.0.113.7'] });
    await ipBanCommand(deps, 'optional').execute({ sender: staff(), label: 'ban-ip', args: ['192.0.2.0/24'] });

    const sender = await unbanIp(['Steve', 'appeal']);
    expect(plain(sender.messages)).toEqual(['Lifted 2 IP ban(s) of the address of Steve (203.0.113.7).']);
    const pardoned = deps.client.calls
      .filter((call) => call.method === 'pardonPunishment')
      .map((call) => (call.args[0] as { punishmentId: string }).punishmentId);
    expect(pardoned.sort()).toEqual(['p-1', 'p-2']);
    expect(deps.cache.activeIpBan('203.0.113.7', NOW)).toBeUndefined();
    expect(deps.cache.activeIpBan('192.0.2.9', NOW)?.id).toBe('p-3');

    const range = await unbanIp(['192.0.2.0/24', '-s']);
    expect(plain(range.messages)).toEqual(['Lifted 1 IP ban(s) of 192.0.2.0/24.']);
    const none = await unbanIp(['192.0.2.0/24']);
    expect(plain(none.messages)).toEqual(['No IP ban of 192.0.2.0/24 is running on this server.']);
  });
});

describe('/alts', () => {
  const page = (overrides: Partial<AltsPage> = {}): AltsPage => ({
    source: 'service',
    total: 2,
    accounts: [
      {
        uuid: ALEX.uuid,
        name: 'Alex',
        sharedIps: [{ ip: '203.0.113.7', lastSeenAt: NOW - 3_600_000 }],
        banned: true,
        muted: true,
      },
      {
        uuid: 'u2',
        name: 'Clean',
        sharedIps: [{ ip: '2001:db8::1', lastSeenAt: NOW - 60_000 }],
        banned: false,
        muted: false,
      },
    ],
    ...overrides,
  });
  const alts = async (args: string[], sender = staff()) => {
    await altsCommand(deps).execute({ sender, label: 'alts', args });
    return sender;
  };

  it('lists linked accounts with their status and source; addresses only for bailiff.alts.ip', async () => {
    const asked: unknown[] = [];
    deps = serviceUp({
      linkedAccounts: async (...args) => {
        asked.push(args);
        return page();
      },
    });
    const seer = await alts(['Steve']);
    expect(plain(seer.messages)).toEqual([
      'Accounts linked to Steve (2, from the moderation service), page 1/1:',
      '  Alex [banned, muted] last seen on a shared address 1h ago via 203.0.113.7',
      '  Clean [clean] last seen on a shared address 1m ago via 2001:db8::1',
    ]);
    expect(asked).toEqual([[STEVE, 1, 10]]);
    const blind = await alts(['Steve'], staff(['bailiff.alts']));
    expect(plain(blind.messages).join('\n')).not.toMatch(/203\.0\.113\.7|2001:db8/);
  });

  it("says when the list is this server's record because the service could not answer, and pages", async () => {
    deps = serviceUp({ linkedAccounts: async () => page({ source: 'local', fallback: 'unreachable', total: 12 }) });
    const sender = await alts(['Steve', '1'], staff(['bailiff.alts']));
    expect(plain(sender.messages)[0]).toBe("The moderation service cannot be reached: showing this server's record.");
    expect(plain(sender.messages)[1]).toBe("Accounts linked to Steve (12, from this server's record), page 1/2:");
    expect(plain(sender.messages).at(-1)).toBe('More: /alts Steve 2');
  });

  it('says when nothing is linked, and reports a refusal', async () => {
    deps = serviceUp({ linkedAccounts: async () => page({ total: 0, accounts: [] }) });
    expect(plain((await alts(['Steve'])).messages)).toEqual([
      'No account is linked to Steve (from the moderation service).',
    ]);
    deps.evasion.linkedAccounts = () =>
      Promise.reject(apiError('http', 'linkedAccounts', { status: 400, serviceMessage: 'page: bad' }));
    expect(plain((await alts(['Steve'])).messages)).toEqual(['The moderation service refused (alts, 400): page: bad']);
  });
});

describe('/bailiff status, ban evasion', () => {
  it('shows the record and, without the stream or the login check, that IP bans stay on this server', () => {
    deps = testDeps({
      status: {
        streamState: 'unsupported',
        loginCheck: { state: 'off' },
        evasion: { addresses: 12, keepDays: 90, ipBans: 2 },
      },
    });
    const sender = fakeSender();
    showStatus(deps, sender);
    expect(plain(sender.messages).slice(-2)).toEqual([
      'Ban evasion: 12 addresses recorded (kept 90 days), 2 addresses or ranges banned',
      'IP bans issued here are enforced on this server only: `recent` cannot carry their address to other servers.',
    ]);
    deps.db.close();
    deps = testDeps({ status: { streamState: 'connected', evasion: { addresses: 1, keepDays: 30, ipBans: 0 } } });
    const connected = fakeSender();
    showStatus(deps, connected);
    expect(plain(connected.messages).at(-1)).toBe(
      'Ban evasion: 1 addresses recorded (kept 30 days), 0 addresses or ranges banned',
    );
  });
});
