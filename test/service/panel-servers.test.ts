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
