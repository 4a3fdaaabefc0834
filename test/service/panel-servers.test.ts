import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { KEY_A1, KEY_A2, KEY_B, NOTCH } from './helpers/fixture.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

let t: PanelTestService;
beforeAll(async () => {
  t = await startPanelService({ pingIntervalMs: 60_000 });
  await t.addAccount('view', 'alpha', 'viewer');
});
afterAll(() => t.close());

/** The row of one server on the servers page, as text without tags. */
async function rowOf(server: string): Promise<string> {
  const viewer = await t.loggedIn('view');
  const page = await viewer.get('/panel/servers');
  expect(page.status).toBe(200);
  const row = new RegExp(`<tr data-server="${server}">([\\s\\S]*?)</tr>`).exec(page.html);
  return row
    ? row[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

describe('servers page', () => {
  it('shows each server of the network with its stream, last request and last acknowledgement', async () => {
    expect(await rowOf('survival')).toBe('survival not connected none yet none yet');

    const created = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: 'mod',
    });
    const { punishmentId } = (await created.json()) as { punishmentId: string };
    t.clock.advance(60_000);
    await t.call('POST', '/punishments/acknowledge', { punishmentId, playerUuid: NOTCH, success: true }, KEY_A1);
    expect(await rowOf('survival')).toBe('survival not connected 2026-01-10 12:01 UTC 2026-01-10 12:01 UTC');

    const ws = new WebSocket(`${t.base.replace('http', 'ws')}/stream`, { headers: { 'x-api-key': KEY_A2 } });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    expect(await rowOf('creative')).toBe('creative connected since 2026-01-10 12:01 UTC 2026-01-10 12:01 UTC none yet');
    t.clock.advance(60_000);
    const closed = new Promise((resolve) => ws.once('close', resolve));
    ws.close();
    await closed;
    let row = '';
    for (let attempt = 0; attempt < 50 && !row.includes('not connected'); attempt += 1) {
      row = await rowOf('creative');
      if (!row.includes('not connected')) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(row).toBe('creative not connected since 2026-01-10 12:02 UTC 2026-01-10 12:01 UTC none yet');
  });

  it("never lists another network's servers", async () => {
    await t.call('GET', '/punishments/recent', undefined, KEY_B);
    expect(await rowOf('lobby')).toBe('');
  });
});

describe('managing servers on the servers page (manage-servers)', () => {
  beforeAll(async () => {
    await t.addAccount('boss', 'alpha', 'admin');
    await t.addAccount('mod', 'alpha', 'moderator');
  });

  const newKeyOf = (html: string) => /<code id="new-key-value">([^<]+)<\/code>/.exec(html)?.[1];
  const typesWith = (apiKey: string) => t.call('GET', '/punishments/types', undefined, apiKey);

  it('offers the forms only to a role with manage-servers, and refuses the writes of any other (403)', async () => {
    const viewer = await t.loggedIn('view');
    const page = await viewer.get('/panel/servers');
    expect(page.html).not.toContain('id="add-server"');
    expect(page.html).not.toContain('/rotate');
    const moderator = await t.loggedIn('mod');
    await moderator.get('/panel/servers');
    for (const [path, form] of [
      ['/panel/servers', { name: 'sneaky' }],
      ['/panel/servers/survival/rotate', { grace: '0' }],
      ['/panel/servers/survival/remove', {}],
    ] as const) {
      const refused = await moderator.post(path, form);
      expect(refused.status).toBe(403);
      expect(refused.html).toContain('does not have the &quot;manage-servers&quot; permission');
    }
    expect((await typesWith(KEY_A1)).status).toBe(200);
    expect(await t.stores.serverKeys.findServer(t.networkId('alpha'), 'sneaky')).toBeUndefined();
  });

  it('refuses a write without the CSRF token', async () => {
    const boss = await t.loggedIn('boss');
    await boss.get('/panel/servers');
    const refused = await boss.post('/panel/servers', { name: 'forged' }, false);
    expect(refused.status).toBe(403);
    expect(await t.stores.serverKeys.findServer(t.networkId('alpha'), 'forged')).toBeUndefined();
  });

  it('adds a server and shows its key once; the key works; reloading never shows it again', async () => {
    const boss = await t.loggedIn('boss');
    await boss.get('/panel/servers');
    const added = await boss.post('/panel/servers', { name: 'skyblock' });
    expect(added.status).toBe(200);
    expect(added.headers.get('cache-control')).toBe('no-store');
    const key = newKeyOf(added.html);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await typesWith(key!)).status).toBe(200);
    const again = await boss.get('/panel/servers');
    expect(again.html).toContain('data-server="skyblock"');
    expect(again.html).not.toContain(key);
    const taken = await boss.post('/panel/servers', { name: 'skyblock' });
    expect(taken.status).toBe(409);
    expect(taken.html).toContain('server: a server named &#39;skyblock&#39; exists');
    const bad = await boss.post('/panel/servers', { name: '<b>x</b>' });
    expect(bad.status).toBe(400);
    expect(bad.html).not.toContain('<b>x</b>');
  });

  it('rotates a key with the chosen grace period, then removes the server; every change is in the audit log', async () => {
    const boss = await t.loggedIn('boss');
    await boss.get('/panel/servers');
    const first = newKeyOf((await boss.post('/panel/servers', { name: 'factions' })).html)!;
    const rotated = await boss.post('/panel/servers/factions/rotate', { grace: '1h' });
    expect(rotated.status).toBe(200);
    const second = newKeyOf(rotated.html)!;
    expect(second).not.toBe(first);
    expect(rotated.html).toContain('The old key is accepted until');
    expect((await typesWith(first)).status).toBe(200);
    expect((await typesWith(second)).status).toBe(200);
    expect((await boss.get('/panel/servers')).html).toMatch(/data-server="factions"[\s\S]*?old key valid until/);

    const cut = await boss.post('/panel/servers/factions/rotate', { grace: '0' });
    expect(cut.html).toContain('The old key is refused from now on.');
    expect((await typesWith(second)).status).toBe(401);
    const bad = await boss.post('/panel/servers/factions/rotate', { grace: '99d' });
    expect(bad.status).toBe(400);

    const removed = await boss.post('/panel/servers/factions/remove', {});
    expect(removed.status).toBe(200);
    expect(removed.html).not.toContain('data-server="factions"');
    expect((await typesWith(newKeyOf(cut.html)!)).status).toBe(401);
    expect((await boss.post('/panel/servers/factions/remove', {})).status).toBe(404);

    const audit = (await t.stores.auditLog.newest(t.networkId('alpha'), 50))
      .filter((entry) => entry.subject === 'factions')
      .map((entry) => [entry.actor, entry.via, entry.action]);
    expect(audit).toEqual([
      ['boss', 'panel', 'server.remove'],
      ['boss', 'panel', 'server.key-rotate'],
      ['boss', 'panel', 'server.key-rotate'],
      ['boss', 'panel', 'server.create'],
    ]);
  });

  it("never touches another network's servers", async () => {
    const boss = await t.loggedIn('boss');
    await boss.get('/panel/servers');
    expect((await boss.post('/panel/servers/lobby/remove', {})).status).toBe(404);
    expect((await typesWith(KEY_B)).status).toBe(200);
  });
});
