import { afterEach, describe, expect, it } from 'vitest';
import { dynamicCreateResponse, loginCheckResponse, successResponse } from '../../src/contract/schemas.js';
import { errorOf, JEB, KEY_A2, KEY_B, NOTCH, START_MS, startTestService, type TestService } from './helpers/fixture.js';

const NEWCOMER = '11111111-2222-4333-8444-555555555555';
const DAY_MS = 24 * 3_600_000;
const START_ISO = new Date(START_MS).toISOString();

let t: TestService | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function punish(service: TestService, uuid: string, typeOrdinal: number, extra: Record<string, unknown> = {}) {
  const response = await service.call('POST', '/punishments/dynamic', {
    targetUuid: uuid,
    typeOrdinal,
    issuerName: 'mod',
    reason: `type ${typeOrdinal}`,
    ...extra,
  });
  expect(response.status).toBe(200);
  return dynamicCreateResponse.parse(await response.json()).punishmentId;
}

async function login(service: TestService, body: Record<string, unknown>, key?: string) {
  const response = await service.call('POST', '/player/login', body, key);
  return { status: response.status, response };
}

describe('login check extension (POST /player/login)', () => {
  it('answers every active punishment of the player however old, with `started`, and the unread notices', async () => {
    t = await startTestService();
    const old = await punish(t, NOTCH, 2);
    t.clock.advance(400 * DAY_MS);
    const mute = await punish(t, NOTCH, 1);
    const pardoned = await punish(t, NOTCH, 14);
    await t.admin('POST', `/networks/alpha/punishments/${pardoned}/status`, { status: 'pardoned' });
    await punish(t, JEB, 2);
    await t.call('POST', '/notifications/acknowledge', { playerUuid: NOTCH, notificationIds: [mute] });

    const { status, response } = await login(t, { minecraftUuid: NOTCH, username: 'Notch' });
    expect(status).toBe(200);
    const body = loginCheckResponse.parse(await response.json());
    expect(body.success).toBe(true);
    expect(body.activePunishments.map((item) => item.id)).toEqual([mute, old]);
    expect(body.activePunishments[1]).toMatchObject({
      typeOrdinal: 2,
      status: 'active',
      started: null,
      reason: 'type 2',
    });
    expect(body.pendingNotifications.map((item) => [item.id, item.type, item.message])).toEqual([
      [old, 'ban', 'Manual Ban: type 2'],
      [pardoned, 'ban', 'Cheating: type 14'],
    ]);
  });

  it('registers an unseen player, so they can be punished, and records the name, address and server', async () => {
    t = await startTestService();
    expect((await t.call('POST', '/punishments/create', { targetUuid: NEWCOMER, type_ordinal: 0 })).status).toBe(404);
    const first = await login(t, { minecraftUuid: NEWCOMER, username: 'Newcomer', ipAddress: '203.0.113.9' });
    expect(loginCheckResponse.parse(await first.response.json())).toMatchObject({
      activePunishments: [],
      pendingNotifications: [],
    });
    expect((await t.call('POST', '/punishments/create', { targetUuid: NEWCOMER, type_ordinal: 0 })).status).toBe(200);

    t.clock.advance(1000);
    await login(t, { minecraftUuid: NEWCOMER.toUpperCase(), username: 'Renamed', serverName: 'lobby-2' }, KEY_A2);
    const seen = await t.admin('GET', `/networks/alpha/players/${NEWCOMER}`);
    expect(await seen.json()).toEqual({
      uuid: NEWCOMER,
      name: 'Renamed',
      lastIp: '203.0.113.9',
      lastServer: 'lobby-2',
      lastLoginAt: new Date(t.clock.now()).toISOString(),
      addresses: [{ ipAddress: '203.0.113.9', firstSeenAt: START_ISO, lastSeenAt: START_ISO }],
      linked: [],
    });
  });

  it('keeps the older players/login form on the same path (no address, the caller server)', async () => {
    t = await startTestService();
    const old = await t.call('POST', '/players/login', { uuid: NEWCOMER, name: 'Oldform' });
    expect(successResponse.parse(await old.json())).toEqual({ success: true });
    const seen = await t.admin('GET', `/networks/alpha/players/${NEWCOMER}`);
    expect(await seen.json()).toMatchObject({ name: 'Oldform', lastIp: null, lastServer: 'survival' });
  });

  it.each([
    [{ username: 'Notch' }, 'minecraftUuid: is required'],
    [{ minecraftUuid: 'not-a-uuid', username: 'Notch' }, 'minecraftUuid: must be a UUID like'],
    [{ minecraftUuid: NOTCH }, 'username: is required'],
    [{ minecraftUuid: NOTCH, username: 'x'.repeat(17) }, 'username: must be at most 16 characters'],
    [{ minecraftUuid: NOTCH, username: 'Notch', ipAddress: '999.1.1.1' }, 'ipAddress: must be an IPv4 or IPv6'],
    [{ minecraftUuid: NOTCH, username: 'Notch', serverName: '' }, 'serverName: must not be empty'],
    [{ minecraftUuid: NOTCH, username: 'Notch', extra: 1 }, 'extra: is not an accepted field'],
  ])('answers 400 naming the field for %j', async (body, message) => {
    t = await startTestService();
    const { status, response } = await login(t, body);
    expect(status).toBe(400);
    expect((await errorOf(response)).message).toContain(message);
  });

  it('accepts the IPv6 addresses and extra fields the hosted panel plugin sends', async () => {
    t = await startTestService();
    const body = { minecraftUuid: NOTCH, username: 'Notch', ipAddress: '2001:db8::1', skinHash: 'ab', ipInfo: {} };
    expect((await login(t, body)).status).toBe(200);
  });

  it('answers 401 without a valid key and never shows another network its punishments', async () => {
    t = await startTestService();
    await punish(t, NOTCH, 2);
    expect((await login(t, { minecraftUuid: NOTCH, username: 'Notch' }, 'wrong-key')).status).toBe(401);
    const other = await login(t, { minecraftUuid: NOTCH, username: 'Notch' }, KEY_B);
    expect(loginCheckResponse.parse(await other.response.json())).toMatchObject({
      activePunishments: [],
      pendingNotifications: [],
    });
  });

  it('is rate limited with the usual 429 body', async () => {
    t = await startTestService({ rateLimitPerMinute: 1 });
    expect((await login(t, { minecraftUuid: NOTCH, username: 'Notch' })).status).toBe(200);
    const limited = await login(t, { minecraftUuid: NOTCH, username: 'Notch' });
    expect(limited.status).toBe(429);
    expect((await errorOf(limited.response)).status).toBe(429);
  });
});

describe('player lookup extension (GET /players/lookup)', () => {
  const lookup = async (service: TestService, name: string, key?: string) => {
    const response = await service.call('GET', `/players/lookup?name=${encodeURIComponent(name)}`, undefined, key);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it("answers the player a name belongs to (any case), the latest to log in under it, else null; never another network's", async () => {
    t = await startTestService();
    expect(await lookup(t, 'NOTCH')).toEqual({ status: 200, body: { player: { uuid: NOTCH, name: 'Notch' } } });
    await login(t, { minecraftUuid: NEWCOMER, username: 'notch' });
    expect((await lookup(t, 'Notch')).body).toEqual({ player: { uuid: NEWCOMER, name: 'notch' } });
    expect(await lookup(t, 'Nobody')).toEqual({ status: 200, body: { player: null } });
    expect((await lookup(t, 'Notch', KEY_B)).body).toEqual({ player: null });
    expect((await lookup(t, 'Notch', 'wrong-key')).status).toBe(401);
  });

  it('names the bad field', async () => {
    t = await startTestService();
    const response = await t.call('GET', '/players/lookup');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('name');
  });
});
