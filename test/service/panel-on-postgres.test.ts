import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/service/panel/passwords.js';
import type { KyselyStorage } from '../../src/service/store/kysely-storage.js';
import { openPostgresStorage } from '../../src/service/store/open-storage.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { JEB, NOTCH, startTestService, type TestService, ticketFixture } from './helpers/fixture.js';
import { PanelClient } from './helpers/panel-client.js';

const PASSWORD = 'correct horse battery';

let database: TestDatabase;
let t: TestService;
let storage: KyselyStorage;
let moderator: PanelClient;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await startTestService({ databaseUrl: database.url });
  // A second connection to arrange rows the panel has no form for, as the SQLite tests use a second file handle.
  storage = await openPostgresStorage(database.url);
  const alpha = (await storage.stores.networks.findNetwork('alpha'))!;
  await storage.stores.panelAccounts.create({
    networkId: alpha,
    username: 'mod',
    passwordHash: await hashPassword(PASSWORD),
    role: 'moderator',
    nowMs: t.clock.now(),
  });
  moderator = new PanelClient(t.service.url);
  const login = await moderator.login('mod', PASSWORD);
  expect(login.status).toBe(303);
  await t.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch', ipAddress: '203.0.113.7' });
  await t.call('POST', '/player/login', { minecraftUuid: JEB, username: 'jeb_', ipAddress: '203.0.113.8' });
  await t.admin('POST', '/networks/alpha/tickets', ticketFixture({ id: 'grief-1', subject: 'a griefer' }));
});
afterAll(async () => {
  await t?.close();
  await storage?.close();
  await database?.drop();
});

async function ban(target: string, reason: string): Promise<string> {
  const created = await t.call('POST', '/punishments/dynamic', {
    targetUuid: target,
    typeOrdinal: 2,
    issuerName: 'api-mod',
    reason,
  });
  expect(created.status).toBe(200);
  return ((await created.json()) as { punishmentId: string }).punishmentId;
}

describe('the panel on PostgreSQL', () => {
  it('punishes and closes from a ticket: linked both ways, the reporter told, then bulk-assigned', async () => {
    await t.admin(
      'POST',
      '/networks/alpha/tickets',
      ticketFixture({ id: 'report-pg', subject: 'a spammer', reportedPlayerUuid: JEB, reportedPlayerName: 'jeb_' }),
    );
    const form = { ticketId: 'report-pg', close: 'yes', closeReply: 'muted, thanks', typeOrdinal: '6', reason: 'spam' };
    const confirm = await moderator.post(`/panel/players/${JEB}/punish`, { ...form, confirm: 'yes' });
    expect(confirm.status).toBe(303);
    const alpha = (await storage.stores.networks.findNetwork('alpha'))!;
    const [linked] = await storage.stores.tickets.punishmentsOf(alpha, 'report-pg');
    expect(linked).toMatchObject({ targetUuid: JEB, issuerName: 'mod', reason: 'spam' });
    expect(await storage.stores.tickets.ticketsOfTarget(alpha, JEB, 10)).toContainEqual({
      punishmentId: linked!.id,
      ticketId: 'report-pg',
      subject: 'a spammer',
    });
    expect(await storage.stores.tickets.find(alpha, 'report-pg')).toMatchObject({
      status: 'Closed',
      replies: [{ authorName: 'mod', message: 'muted, thanks' }],
    });
    const notices = await storage.stores.notifications.pendingFor(alpha, NOTCH);
    expect(notices.map((row) => row.message)).toContain('Staff replied to your ticket report-pg: muted, thanks');
    const bulk = await moderator.post('/panel/tickets/bulk', {
      ids: ['report-pg', 'grief-1'],
      action: 'assign',
      assignee: 'mod',
    });
    expect(bulk.location).toBe('/panel/tickets?assigned=2&skipped=0');
    expect(await storage.stores.ticketList.assigneeOf(alpha, 'grief-1')).toBe('mod');
  });

  it("shows the dashboard's punishments, open tickets and charts", async () => {
    const id = await ban(NOTCH, 'dashboard on postgres');
    t.clock.advance(5000);
    const page = await moderator.get('/panel/');
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-id="${id}"`);
    expect(page.html).toContain('a griefer');
    const attribute = /id="punishments-chart" data-chart="([^"]+)"/.exec(page.html)![1]!;
    const chart = JSON.parse(attribute.replaceAll('&quot;', '"')) as { datasets: { label: string; data: number[] }[] };
    expect(chart.datasets.find((set) => set.label === 'Manual Ban')!.data.at(-1)).toBeGreaterThanOrEqual(1);
  });

  it("finds players by name and shows a player's page with their punishments", async () => {
    const exact = await moderator.get('/panel/players?q=notch');
    expect(exact.location).toBe(`/panel/players/${NOTCH}`);
    const prefix = await moderator.get('/panel/players?q=J');
    expect(prefix.html).toContain(`/panel/players/${JEB}`);
    const id = await ban(JEB, 'player page on postgres');
    const page = await moderator.get(`/panel/players/${JEB}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(id);
    expect(page.html).toContain('player page on postgres');
  });

  it('lists tickets and opens an appeal whose ticket the staff list shows', async () => {
    const punishmentId = await ban(NOTCH, 'appealed on postgres');
    const issued = await t.call('POST', '/appeals/code', { punishmentId, playerUuid: NOTCH, playerName: 'Notch' });
    const { code } = (await issued.json()) as { code: string };
    const sent = await fetch(`${t.service.url}/panel/appeal/alpha`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        code,
        playerName: 'Notch',
        message: 'Please lift it, I have learned my lesson and will not do it again.',
      }).toString(),
      redirect: 'manual',
    });
    expect(sent.status).toBe(303);
    const appeal = await storage.stores.appeals.byToken(sent.headers.get('location')!.split('/').at(-1)!);
    expect(appeal).toMatchObject({ punishmentId, status: 'open' });
    const list = await moderator.get('/panel/tickets');
    expect(list.status).toBe(200);
    expect(list.html).toContain('a griefer');
    expect(list.html).toContain(appeal!.ticketId);
  });
});
