import { afterEach, describe, expect, it } from 'vitest';
import { linkedAccountsResponse } from '../../src/contract/schemas.js';
import {
  errorOf,
  JEB,
  KEY_B,
  NOTCH,
  START_MS,
  startTestService,
  type TestService,
  UNKNOWN_PLAYER,
} from './helpers/fixture.js';

const ALT_1 = '11111111-1111-4111-8111-000000000001';
const ALT_2 = '11111111-1111-4111-8111-000000000002';
const ALT_3 = '11111111-1111-4111-8111-000000000003';
const DAY_MS = 24 * 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function login(service: TestService, uuid: string, username: string, ipAddress: string, key?: string) {
  const response = await service.call('POST', '/player/login', { minecraftUuid: uuid, username, ipAddress }, key);
  expect(response.status).toBe(200);
}

async function linked(service: TestService, uuid: string, query = '', key?: string) {
  const response = await service.call('GET', `/players/${uuid}/linked${query}`, undefined, key);
  expect(response.status).toBe(200);
  return linkedAccountsResponse.parse(await response.json());
}

describe('linked accounts extension (GET /players/{uuid}/linked)', () => {
  it('links accounts that logged in from one address: shared addresses, last seen, active punishments', async () => {
    t = await startTestService();
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    t.clock.advance(1000);
    await login(t, ALT_1, 'AltOne', '203.0.113.7');
    t.clock.advance(1000);
    await login(t, ALT_1, 'AltOne', '2001:db8::1');
    await login(t, NOTCH, 'Notch', '2001:0db8:0:0::1');
    await login(t, JEB, 'jeb_', '198.51.100.1');
    const mute = await t.call('POST', '/punishments/dynamic', {
      targetUuid: ALT_1,
      typeOrdinal: 1,
      issuerName: 'mod',
      reason: 'spam',
    });
    const muteId = ((await mute.json()) as { punishmentId: string }).punishmentId;

    const answer = await linked(t, NOTCH);
    expect(answer).toMatchObject({ success: true, page: 1, pageSize: 20, total: 1 });
    expect(answer.accounts).toHaveLength(1);
    expect(answer.accounts[0]).toMatchObject({
      uuid: ALT_1,
      name: 'AltOne',
      sharedIps: [
        { ipAddress: '2001:db8::1', lastSeenAt: iso(START_MS + 2000) },
        { ipAddress: '203.0.113.7', lastSeenAt: iso(START_MS + 1000) },
      ],
    });
    expect(answer.accounts[0]!.activePunishments.map((punishment) => punishment.id)).toEqual([muteId]);
    expect((await linked(t, ALT_1)).accounts.map((account) => account.uuid)).toEqual([NOTCH]);
    expect((await linked(t, JEB)).total).toBe(0);
  });

  it('pages the accounts, most recently seen first', async () => {
    t = await startTestService();
    for (const [at, uuid] of [NOTCH, ALT_1, ALT_2, ALT_3].entries()) {
      t.clock.advance(1000);
      await login(t, uuid, `P${at}`, '203.0.113.7');
    }
    const first = await linked(t, NOTCH, '?page=1&pageSize=2');
    expect(first).toMatchObject({ page: 1, pageSize: 2, total: 3 });
    expect(first.accounts.map((account) => account.uuid)).toEqual([ALT_3, ALT_2]);
    const second = await linked(t, NOTCH, '?page=2&pageSize=2');
    expect(second.accounts.map((account) => account.uuid)).toEqual([ALT_1]);
    expect((await linked(t, NOTCH, '?page=3&pageSize=2')).accounts).toEqual([]);
  });

  it('an address seen with more accounts than sharedIpThreshold links nobody', async () => {
    t = await startTestService({ sharedIpThreshold: 2 });
    await login(t, NOTCH, 'Notch', '192.0.2.50');
    await login(t, ALT_1, 'AltOne', '192.0.2.50');
    expect((await linked(t, NOTCH)).total).toBe(1);
    await login(t, ALT_2, 'AltTwo', '192.0.2.50');
    expect((await linked(t, NOTCH)).total).toBe(0);
    // Another address the two still share links them.
    await login(t, NOTCH, 'Notch', '192.0.2.60');
    await login(t, ALT_1, 'AltOne', '192.0.2.60');
    const answer = await linked(t, NOTCH);
    expect(answer.accounts.map((account) => [account.uuid, account.sharedIps.map((ip) => ip.ipAddress)])).toEqual([
      [ALT_1, ['192.0.2.60']],
    ]);
  });

  it('logins older than linkExpiryDays link nothing', async () => {
    t = await startTestService({ linkExpiryDays: 30 });
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    await login(t, ALT_1, 'AltOne', '203.0.113.7');
    t.clock.advance(29 * DAY_MS);
    expect((await linked(t, NOTCH)).total).toBe(1);
    t.clock.advance(2 * DAY_MS);
    expect((await linked(t, NOTCH)).total).toBe(0);
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    expect((await linked(t, NOTCH)).total).toBe(0);
    await login(t, ALT_1, 'AltOne', '203.0.113.7');
    expect((await linked(t, NOTCH)).total).toBe(1);
  });

  it('a player the service never saw has no linked accounts (200), so 404 means the route is not offered', async () => {
    t = await startTestService();
    expect(await linked(t, UNKNOWN_PLAYER)).toMatchObject({ total: 0, accounts: [] });
  });

  it('keeps networks apart: another network never sees the links', async () => {
    t = await startTestService();
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    await login(t, ALT_1, 'AltOne', '203.0.113.7');
    expect((await linked(t, NOTCH, '', KEY_B)).total).toBe(0);
    // The same address in network beta links nothing of alpha.
    await login(t, ALT_2, 'Beta', '203.0.113.7', KEY_B);
    expect((await linked(t, ALT_2, '', KEY_B)).total).toBe(0);
    expect((await linked(t, NOTCH)).accounts.map((account) => account.uuid)).toEqual([ALT_1]);
  });

  it.each([
    ['/players/not-a-uuid/linked', 'uuid: must be a UUID like 069a79f4-44e9-4726-a5be-fca90e38aaf5'],
    [`/players/${NOTCH}/linked?pageSize=0`, 'pageSize: must be at least 1'],
    [`/players/${NOTCH}/linked?pageSize=101`, 'pageSize: must be at most 100'],
    [`/players/${NOTCH}/linked?page=x`, 'page: must be a number'],
    [`/players/${NOTCH}/linked?colour=red`, 'colour: is not an accepted field'],
  ])('answers 400 naming the field for %s', async (path, message) => {
    t = await startTestService();
    const response = await t.call('GET', path);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(message);
  });

  it('needs the API key (401) and is rate limited with the other limited routes', async () => {
    t = await startTestService({ rateLimitPerMinute: 1 });
    expect((await t.call('GET', `/players/${NOTCH}/linked`, undefined, null)).status).toBe(401);
    expect((await t.call('GET', `/players/${NOTCH}/linked`)).status).toBe(200);
    const limited = await t.call('GET', `/players/${NOTCH}/linked`);
    expect(limited.status).toBe(429);
    expect((await errorOf(limited)).message).toContain('rate limit');
  });

  it('shows the addresses and links in the admin view of a player', async () => {
    t = await startTestService({ sharedIpThreshold: 3 });
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    t.clock.advance(1000);
    await login(t, ALT_1, 'AltOne', '203.0.113.7');
    const view = await t.admin('GET', `/networks/alpha/players/${NOTCH}`);
    expect(await view.json()).toMatchObject({
      addresses: [{ ipAddress: '203.0.113.7', firstSeenAt: iso(START_MS), lastSeenAt: iso(START_MS) }],
      linked: [
        { uuid: ALT_1, name: 'AltOne', sharedIps: [{ ipAddress: '203.0.113.7', lastSeenAt: iso(START_MS + 1000) }] },
      ],
    });
  });
});
