import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { hashApiKey } from '../../src/service/store/server-rows.js';
import { errorOf, startTestService, type TestService } from './helpers/fixture.js';
import { within } from './helpers/within.js';

const HOUR_MS = 3_600_000;
/** How long a stream may take to close (a bound, not a timing). */
const WAIT_MS = 10_000;
let t: TestService;
beforeAll(async () => {
  // The keys of open streams are looked up often, so a key whose grace period ended is seen within the test.
  t = await startTestService({ streamKeyCheckIntervalMs: 50 });
});
afterAll(() => t.close());

const typesWith = (apiKey: string) => t.call('GET', '/punishments/types', undefined, apiKey);

async function addServer(network: string, name: string): Promise<string> {
  const added = await t.admin('POST', `/networks/${network}/servers`, { name });
  expect(added.status).toBe(200);
  return ((await added.json()) as { apiKey: string }).apiKey;
}

/** A stream opened with `apiKey`; resolves once it said hello, with how it closes. */
async function openStream(apiKey: string) {
  const ws = new WebSocket(`${t.base.replace('http', 'ws')}/stream`, { headers: { 'x-api-key': apiKey } });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('message', () => resolve());
    ws.once('error', reject);
  });
  return { ws, closed };
}

async function auditOf(network: string) {
  const networkId = (await t.service.context.stores.networks.findNetwork(network))!;
  return (await t.service.context.stores.auditLog.newest(networkId, 50)).map((entry) => ({
    actor: entry.actor,
    via: entry.via,
    action: entry.action,
    subject: entry.subject,
    detail: entry.detail,
  }));
}

describe('admin API: networks, servers and keys', () => {
  it('needs the admin token', async () => {
    const none = await fetch(`${t.service.url}/admin/v1/networks`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    expect((await t.admin('POST', '/networks/alpha/servers', { name: 'x' }, 'not-the-token')).status).toBe(401);
  });

  it('adds a network once; names are checked', async () => {
    const added = await t.admin('POST', '/networks', { name: 'gamma' });
    expect(await added.json()).toEqual({ success: true, network: { name: 'gamma' } });
    expect(((await (await t.admin('GET', '/networks')).json()) as { networks: unknown[] }).networks).toEqual([
      { name: 'alpha' },
      { name: 'beta' },
      { name: 'gamma' },
    ]);
    const again = await t.admin('POST', '/networks', { name: 'gamma' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe("network: a network named 'gamma' exists");
    const bad = await t.admin('POST', '/networks', { name: '../x' });
    expect((await errorOf(bad)).message).toContain("network: '../x' is not a valid name");
    expect((await errorOf(await t.admin('POST', '/networks', {}))).message).toBe('name: is required');
    expect(await auditOf('gamma')).toEqual([
      { actor: 'admin token', via: 'admin', action: 'network.create', subject: 'gamma', detail: null },
    ]);
  });

  it('adds a server: its key once, with enough entropy, working at once; lists never show a key', async () => {
    const added = await t.admin('POST', '/networks/gamma/servers', { name: 'survival' });
    expect(added.headers.get('cache-control')).toBe('no-store');
    const body = (await added.json()) as { success: boolean; server: { name: string }; apiKey: string };
    expect(body).toMatchObject({ success: true, server: { name: 'survival' } });
    expect(body.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await addServer('gamma', 'lobby')).not.toBe(body.apiKey);
    expect((await typesWith(body.apiKey)).status).toBe(200);

    const listed = await t.admin('GET', '/networks/gamma/servers');
    const text = await listed.text();
    expect(JSON.parse(text)).toEqual({
      servers: [
        { name: 'lobby', keySetAt: '2026-01-10T12:00:00.000Z', oldKeysValidUntil: [] },
        { name: 'survival', keySetAt: '2026-01-10T12:00:00.000Z', oldKeysValidUntil: [] },
      ],
    });
    expect(text).not.toContain(body.apiKey);
    expect(text).not.toContain(hashApiKey(body.apiKey).toString('hex'));
    const taken = await t.admin('POST', '/networks/gamma/servers', { name: 'survival' });
    expect(taken.status).toBe(409);
    const unknown = await t.admin('POST', '/networks/delta/servers', { name: 'x' });
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toBe("network: no network named 'delta'; networks: alpha, beta, gamma");
    expect(JSON.stringify(await auditOf('gamma'))).not.toContain(body.apiKey);
  });

  it('rotates a key: the old one is accepted through its grace period, then refused, and its stream closed', async () => {
    const before = await addServer('gamma', 'hub');
    const stream = await openStream(before);
    const rotated = await t.admin('POST', '/networks/gamma/servers/hub/key', { graceSeconds: 3600 });
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const { apiKey: after, oldKeyValidUntil } = (await rotated.json()) as { apiKey: string; oldKeyValidUntil: string };
    expect(oldKeyValidUntil).toBe('2026-01-10T13:00:00.000Z');
    expect((await typesWith(before)).status).toBe(200);
    expect((await typesWith(after)).status).toBe(200);
    const listed = (await (await t.admin('GET', '/networks/gamma/servers')).json()) as {
      servers: Array<{ name: string; oldKeysValidUntil: string[] }>;
    };
    expect(listed.servers.find((server) => server.name === 'hub')?.oldKeysValidUntil).toEqual([oldKeyValidUntil]);

    t.clock.advance(HOUR_MS - 1);
    expect((await typesWith(before)).status).toBe(200);
    expect(stream.ws.readyState).toBe(WebSocket.OPEN);
    t.clock.advance(1);
    expect((await typesWith(before)).status).toBe(401);
    expect((await typesWith(after)).status).toBe(200);
    expect(await within(stream.closed, WAIT_MS, 'the old key’s stream to close')).toEqual({
      code: 1008,
      reason: 'the server key is no longer accepted',
    });
    expect(await auditOf('gamma')).toContainEqual({
      actor: 'admin token',
      via: 'admin',
      action: 'server.key-rotate',
      subject: 'hub',
      detail: { graceSeconds: 3600, oldKeyValidUntil: '2026-01-10T13:00:00.000Z' },
    });
  });

  it('rotates without grace: the old key and its stream stop at once', async () => {
    const before = await addServer('gamma', 'arena');
    const stream = await openStream(before);
    const rotated = await t.admin('POST', '/networks/gamma/servers/arena/key', { graceSeconds: 0 });
    expect(await rotated.json()).toMatchObject({ oldKeyValidUntil: null });
    expect((await typesWith(before)).status).toBe(401);
    expect((await within(stream.closed, WAIT_MS, 'the stream to close')).code).toBe(1008);
  });

  it('removes a server: its key is refused, its stream closed, and it is no longer listed', async () => {
    const key = await addServer('gamma', 'old');
    const stream = await openStream(key);
    const removed = await t.admin('DELETE', '/networks/gamma/servers/old');
    expect(await removed.json()).toEqual({ success: true });
    expect((await typesWith(key)).status).toBe(401);
    expect((await within(stream.closed, WAIT_MS, 'the stream to close')).code).toBe(1008);
    const listed = (await (await t.admin('GET', '/networks/gamma/servers')).json()) as {
      servers: Array<{ name: string }>;
    };
    expect(listed.servers.map((server) => server.name)).not.toContain('old');
    const again = await t.admin('DELETE', '/networks/gamma/servers/old');
    expect(again.status).toBe(404);
    expect((await errorOf(again)).message).toBe("server: no server named 'old' in this network");
    expect(await auditOf('gamma')).toContainEqual({
      actor: 'admin token',
      via: 'admin',
      action: 'server.remove',
      subject: 'old',
      detail: null,
    });
  });

  it('refuses a bad grace period, naming the field, and changes nothing', async () => {
    const key = await addServer('gamma', 'strict');
    for (const [graceSeconds, message] of [
      [-1, 'graceSeconds: must be at least 0'],
      [2_592_001, 'graceSeconds: must be at most 2592000 (30 days)'],
      ['1h', 'graceSeconds: must be a number'],
    ] as const) {
      const refused = await t.admin('POST', '/networks/gamma/servers/strict/key', { graceSeconds });
      expect((await errorOf(refused)).message).toBe(message);
    }
    expect((await errorOf(await t.admin('POST', '/networks/gamma/servers/strict/key', {}))).message).toBe(
      'graceSeconds: is required',
    );
    expect((await t.admin('POST', '/networks/gamma/servers/ghost/key', { graceSeconds: 0 })).status).toBe(404);
    expect((await typesWith(key)).status).toBe(200);
  });
});
