import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DINNERBONE, KEY_B, NOTCH, ticketFixture } from './helpers/fixture.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

let t: PanelTestService;
beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('view', 'alpha', 'viewer');
});
afterAll(() => t.close());

const entriesOf = async (network = 'alpha') =>
  (await t.stores.auditLog.newest(t.networkId(network), 500)).map((entry) => ({
    actor: entry.actor,
    via: entry.via,
    action: entry.action,
    subject: entry.subject,
    detail: entry.detail,
  }));

describe('audit of API actions', () => {
  it('records punishment create, evidence, pardon, ticket writes and admin API writes with who and which server', async () => {
    const created = await t.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: '<b>Steve</b>',
      reason: 'x-ray',
    });
    const { punishmentId } = (await created.json()) as { punishmentId: string };
    await t.call('POST', `/punishments/${punishmentId}/evidence`, {
      issuerName: 'Steve',
      evidenceUrl: 'https://example.com/clip',
    });
    await t.call('POST', `/punishments/${punishmentId}/pardon`, { issuerName: 'Alex', reason: 'appeal' });
    await t.admin('POST', `/networks/alpha/punishments/${punishmentId}/status`, { status: 'active' });
    await t.admin('POST', '/networks/alpha/tickets', ticketFixture({ id: 'audit-ticket' }));
    await t.admin('PATCH', '/networks/alpha/settings', { publicList: true });
    await t.call(
      'POST',
      '/punishments/dynamic',
      { targetUuid: DINNERBONE, typeOrdinal: 2, issuerName: 'betamod' },
      KEY_B,
    );

    const entries = await entriesOf();
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: '<b>Steve</b>',
          via: 'api',
          action: 'punishment.create',
          subject: punishmentId,
        }),
        expect.objectContaining({
          actor: 'Steve',
          action: 'punishment.evidence',
          detail: expect.objectContaining({ server: 'survival' }),
        }),
        expect.objectContaining({ actor: 'Alex', action: 'punishment.pardon', subject: punishmentId }),
        expect.objectContaining({
          actor: 'admin token',
          via: 'admin',
          action: 'punishment.status',
          subject: punishmentId,
        }),
        expect.objectContaining({ actor: 'admin token', action: 'ticket.save', subject: 'audit-ticket' }),
        expect.objectContaining({ actor: 'admin token', action: 'network.settings' }),
      ]),
    );
    expect(entries.map((entry) => entry.actor)).not.toContain('betamod');
    expect(JSON.stringify(entries)).not.toContain(KEY_B);
  });

  it('the audit page shows them as text, filtered by actor and kind, never another network', async () => {
    const viewer = await t.loggedIn('view');
    const page = await viewer.get('/panel/audit');
    expect(page.status).toBe(200);
    expect(page.html).toContain('&lt;b&gt;Steve&lt;/b&gt;');
    expect(page.html).not.toContain('<b>Steve</b>');
    expect(page.html).not.toContain('betamod');
    const alex = await viewer.get('/panel/audit?actor=Alex');
    expect(alex.html).toContain('punishment.pardon');
    expect(alex.html).not.toContain('punishment.create');
    const tickets = await viewer.get('/panel/audit?area=ticket');
    expect(tickets.html).toContain('ticket.save');
    expect(tickets.html).not.toContain('punishment.pardon');
  });

  it('pages by keyset', async () => {
    for (let index = 0; index < 55; index += 1) {
      await t.admin('POST', '/networks/alpha/players', { uuid: NOTCH, name: `Name${index}` });
    }
    const viewer = await t.loggedIn('view');
    const first = await viewer.get('/panel/audit?area=player');
    expect(first.html.match(/player\.save/g)).toHaveLength(50);
    const next = /rel="next" href="([^"]+)"/.exec(first.html)![1]!.replaceAll('&amp;', '&');
    const second = await viewer.get(next);
    expect(second.html.match(/player\.save/g)).toHaveLength(5);
    expect(second.html).not.toContain('rel="next"');
  });
});
