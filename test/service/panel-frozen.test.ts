import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JEB, KEY_B, NOTCH } from './helpers/fixture.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

let t: PanelTestService;
beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('frozen-viewer', 'alpha', 'viewer');
  await t.addAccount('frozen-mod', 'alpha', 'moderator');
});
afterAll(() => t.close());

/** The rows of the frozen page, as text without tags. */
async function rows(username: string): Promise<string[]> {
  const page = await (await t.loggedIn(username)).get('/panel/frozen');
  expect(page.status).toBe(200);
  return [...page.html.matchAll(/<tr data-player="[^"]+">([\s\S]*?)<\/tr>/g)].map((row) =>
    row[1]!
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

describe('frozen players page', () => {
  it("lists the network's frozen players for every staff member; only `pardon` unfreezes, audited", async () => {
    expect(await rows('frozen-viewer')).toEqual([]);
    await t.call('POST', `/players/${NOTCH}/freeze`, {
      playerName: 'Notch',
      issuerName: 'Mod',
      reason: 'x-ray <b>check</b>',
    });
    t.clock.advance(60_000);
    await t.call('POST', `/players/${JEB}/freeze`, { playerName: 'jeb_', issuerName: 'Admin' });
    // Another network's freeze is never shown.
    await t.call('POST', `/players/${JEB}/freeze`, { playerName: 'jeb_', issuerName: 'Beta' }, KEY_B);

    expect(await rows('frozen-viewer')).toEqual([
      'jeb_ Admin 2026-01-10 12:01 UTC survival no reason given',
      'Notch Mod 2026-01-10 12:00 UTC survival x-ray &lt;b&gt;check&lt;/b&gt;',
    ]);
    const viewerPage = await (await t.loggedIn('frozen-viewer')).get('/panel/frozen');
    expect(viewerPage.html).toContain('x-ray &lt;b&gt;check&lt;/b&gt;');
    expect(viewerPage.html).not.toContain('Unfreeze');
    const refused = await (await t.loggedIn('frozen-viewer')).post(`/panel/frozen/${NOTCH}/unfreeze`);
    expect(refused.status).toBe(403);

    const mod = await t.loggedIn('frozen-mod');
    const done = await mod.post(`/panel/frozen/${NOTCH}/unfreeze`);
    expect(done.status).toBe(200);
    expect(done.html).toContain('Notch unfrozen');
    expect(await rows('frozen-mod')).toEqual(['jeb_ Admin 2026-01-10 12:01 UTC survival no reason given Unfreeze']);
    const again = await mod.post(`/panel/frozen/${NOTCH}/unfreeze`);
    expect(again.status).toBe(404);

    // Game servers learn it from the list they poll.
    const listed = (await (await t.call('GET', '/freezes')).json()) as { players: { playerName: string }[] };
    expect(listed.players.map((player) => player.playerName)).toEqual(['jeb_']);
    const { stores } = t.service.context;
    const alpha = (await stores.networks.findNetwork('alpha'))!;
    const [entry] = await stores.auditQuery.page(alpha, { area: 'player' }, Number.MAX_SAFE_INTEGER, 1);
    expect(entry).toMatchObject({ actor: 'frozen-mod', via: 'panel', action: 'player.unfreeze', subject: NOTCH });
  });
});
