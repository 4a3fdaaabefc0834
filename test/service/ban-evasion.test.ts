import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ADDRESS_ONLY_TARGET } from '../../src/contract/evasion-data.js';
import { loginCheckResponse, type StreamFrame, streamFrame } from '../../src/contract/schemas.js';
import { errorOf, KEY_A2, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

const ALT = '11111111-1111-4111-8111-000000000001';
const OTHER = '11111111-1111-4111-8111-000000000002';
const HOUR_MS = 3_600_000;

let t: TestService | undefined;
let sockets: WebSocket[] = [];
afterEach(async () => {
  for (const socket of sockets) socket.terminate();
  sockets = [];
  await t?.close();
  t = undefined;
});

async function login(service: TestService, uuid: string, username: string, ipAddress: string) {
  const response = await service.call('POST', '/player/login', { minecraftUuid: uuid, username, ipAddress });
  expect(response.status).toBe(200);
  return loginCheckResponse.parse(await response.json()).activePunishments;
}

async function ban(service: TestService, body: Record<string, unknown>): Promise<string> {
  const response = await service.call('POST', '/punishments/dynamic', {
    typeOrdinal: 2,
    issuerName: 'mod',
    reason: 'cheating',
    ...body,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { punishmentId: string }).punishmentId;
}

async function openStream(service: TestService) {
  const ws = new WebSocket(`${service.base.replace('http', 'ws')}/stream`, { headers: { 'x-api-key': KEY_A2 } });
  sockets.push(ws);
  const frames: StreamFrame[] = [];
  ws.on('message', (data) => frames.push(streamFrame.parse(JSON.parse(String(data)))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return frames;
}

async function frameOf(frames: StreamFrame[], id: string, status: string) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const found = frames.find(
      (frame) => frame.type === 'punishment' && frame.punishment.id === id && frame.punishment.status === status,
    );
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${status} frame of ${id} within 5 s`);
}

describe('alt-blocking bans and Linked Bans (login check)', () => {
  it('gives a linked account a Linked Ban at login: ordinal 4, System, linkedBanId, the time left; once', async () => {
    t = await startTestService();
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    const parent = await ban(t, { targetUuid: NOTCH, duration: 24 * HOUR_MS, data: { altBlocking: true } });
    await t.call('POST', '/punishments/acknowledge', { punishmentId: parent, playerUuid: NOTCH, success: true });
    t.clock.advance(HOUR_MS);

    const answered = await login(t, ALT, 'Alty', '203.0.113.7');
    expect(answered).toHaveLength(1);
    expect(answered[0]).toMatchObject({
      targetUuid: ALT,
      targetName: 'Alty',
      typeOrdinal: 4,
      issuerName: 'System',
      reason: 'cheating',
      duration: 23 * HOUR_MS,
      status: 'active',
      data: { linkedBanId: parent },
    });
    expect((await login(t, ALT, 'Alty', '203.0.113.7')).map((punishment) => punishment.id)).toEqual([answered[0]!.id]);
  });

  it('issues nothing for a ban that is not alt-blocking, nor through an address above the threshold', async () => {
    t = await startTestService({ sharedIpThreshold: 2 });
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    await ban(t, { targetUuid: NOTCH });
    expect(await login(t, ALT, 'Alty', '203.0.113.7')).toEqual([]);

    await login(t, OTHER, 'Other', '198.51.100.9');
    await login(t, ALT, 'Alty', '192.0.2.1');
    await ban(t, { targetUuid: OTHER, data: { altBlocking: true } });
    await login(t, ALT, 'Alty', '198.51.100.9');
    await login(t, NOTCH, 'Notch', '198.51.100.9');
    // Alty, linked while the address had two accounts, has its Linked Ban; Notch, the third, gets none.
    expect((await login(t, ALT, 'Alty', '192.0.2.1')).map((punishment) => punishment.typeOrdinal)).toEqual([4]);
    expect((await login(t, NOTCH, 'Notch', '198.51.100.9')).map((punishment) => punishment.typeOrdinal)).toEqual([2]);
  });

  it('pardoning the parent pardons its Linked Bans, each pushed on the stream; a pardoned link is not reissued', async () => {
    t = await startTestService();
    const frames = await openStream(t);
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    const parent = await ban(t, { targetUuid: NOTCH, data: { altBlocking: true } });
    const [linked] = await login(t, ALT, 'Alty', '203.0.113.7');
    await frameOf(frames, linked!.id, 'active');

    const pardon = await t.call('POST', `/punishments/${parent}/pardon`, { issuerName: 'Admin', reason: 'appeal' });
    expect(pardon.status).toBe(200);
    await frameOf(frames, parent, 'pardoned');
    await frameOf(frames, linked!.id, 'pardoned');
    const view = await t.admin('GET', `/networks/alpha/punishments/${linked!.id}`);
    expect(await view.json()).toMatchObject({
      punishment: { status: 'pardoned' },
      pardon: { issuerName: 'Admin', reason: `pardoned with ${parent}` },
    });
    expect(await login(t, ALT, 'Alty', '203.0.113.7')).toEqual([]);
  });

  it('expiring the parent (admin status) expires its Linked Bans; the admin view lists the active ones', async () => {
    t = await startTestService();
    await login(t, NOTCH, 'Notch', '203.0.113.7');
    const parent = await ban(t, { targetUuid: NOTCH, data: { altBlocking: true } });
    const [linked] = await login(t, ALT, 'Alty', '203.0.113.7');
    const before = await t.admin('GET', `/networks/alpha/punishments/${parent}`);
    expect(await before.json()).toMatchObject({ activeLinkedBans: [linked!.id] });

    await t.admin('POST', `/networks/alpha/punishments/${parent}/status`, { status: 'expired' });
    const after = await t.admin('GET', `/networks/alpha/punishments/${linked!.id}`);
    expect(await after.json()).toMatchObject({ punishment: { status: 'expired' } });
    expect(await login(t, ALT, 'Alty', '203.0.113.7')).toEqual([]);
  });
});

describe('IP bans (data.ipAddress)', () => {
  it('answers an IP ban to every account logging in from its address or range, and to no other', async () => {
    t = await startTestService();
    const address = await ban(t, { targetUuid: NOTCH, data: { ipAddress: '203.0.113.7' } });
    const range = await ban(t, { targetUuid: ADDRESS_ONLY_TARGET, data: { ipAddress: '198.51.100.0/24' } });
    const v6 = await ban(t, { targetUuid: ADDRESS_ONLY_TARGET, data: { ipAddress: '2001:db8::/48' } });

    expect((await login(t, ALT, 'Alty', '203.0.113.7')).map((punishment) => punishment.id)).toEqual([address]);
    expect((await login(t, ALT, 'Alty', '198.51.100.200')).map((punishment) => punishment.id)).toEqual([range]);
    expect((await login(t, ALT, 'Alty', '2001:db8:0:1::5')).map((punishment) => punishment.id)).toEqual([v6]);
    expect(await login(t, ALT, 'Alty', '203.0.113.8')).toEqual([]);
    expect(await login(t, ALT, 'Alty', '::ffff:192.0.2.1')).toEqual([]);
    const [shown] = await login(t, ALT, 'Alty', '::ffff:198.51.100.1');
    expect(shown).toMatchObject({ id: range, targetName: 'IP address', data: { ipAddress: '198.51.100.0/24' } });
  });

  it('refuses an IP ban broader than ipBanMinPrefixV4/V6 (default /16 and /48) with a 400 naming the option', async () => {
    t = await startTestService();
    for (const [ipAddress, option] of [
      ['0.0.0.0/0', 'ipBanMinPrefixV4'],
      ['10.0.0.0/15', 'ipBanMinPrefixV4'],
      ['::/0', 'ipBanMinPrefixV6'],
      ['2001:db8::/47', 'ipBanMinPrefixV6'],
    ] as const) {
      const response = await t.call('POST', '/punishments/dynamic', {
        targetUuid: ADDRESS_ONLY_TARGET,
        typeOrdinal: 2,
        issuerName: 'mod',
        data: { ipAddress },
      });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toContain(`(service option ${option})`);
    }
    expect(await login(t, ALT, 'Alty', '10.0.0.1')).toEqual([]);
    await ban(t, { targetUuid: ADDRESS_ONLY_TARGET, data: { ipAddress: '10.0.0.0/16' } });
    await t.close();

    t = await startTestService({ ipBanMinPrefixV4: 0 });
    await ban(t, { targetUuid: ADDRESS_ONLY_TARGET, data: { ipAddress: '0.0.0.0/0' } });
  });

  it('keeps IP bans to their network', async () => {
    t = await startTestService();
    await ban(t, { targetUuid: NOTCH, data: { ipAddress: '203.0.113.7' } });
    const other = await t.call(
      'POST',
      '/player/login',
      { minecraftUuid: ALT, username: 'Alty', ipAddress: '203.0.113.7' },
      KEY_B,
    );
    expect(loginCheckResponse.parse(await other.json()).activePunishments).toEqual([]);
  });

  it.each([
    [
      { ipAddress: 'localhost' },
      'data.ipAddress: must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24',
    ],
    [
      { ipAddress: '10.0.0.0/33' },
      'data.ipAddress: must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24',
    ],
    [{ altBlocking: 'yes' }, 'data.altBlocking: must be a boolean'],
  ])('refuses bad evasion data %j with a 400 naming the field, storing nothing', async (data, message) => {
    t = await startTestService();
    const response = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: 'mod',
      data,
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(message);
    const recent = await t.call('GET', '/punishments/recent');
    expect(((await recent.json()) as { punishments: unknown[] }).punishments).toEqual([]);
  });

  it('takes the nil UUID as the target of an address-only IP ban, and only then', async () => {
    t = await startTestService();
    const withoutAddress = await t.call('POST', '/punishments/dynamic', {
      targetUuid: ADDRESS_ONLY_TARGET,
      typeOrdinal: 2,
      issuerName: 'mod',
    });
    expect(withoutAddress.status).toBe(404);
    await ban(t, { targetUuid: ADDRESS_ONLY_TARGET, data: { ipAddress: '192.0.2.0/28' } });
  });
});
