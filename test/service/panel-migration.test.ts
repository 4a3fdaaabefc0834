import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../src/service/panel/staff-session.js';
import { JEB } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

const MIGRATED = '0b9ce1a1-8d3c-4c39-9a49-0d0a0e0b0c01';
const exportFile = JSON.stringify({
  players: [
    {
      minecraftUuid: MIGRATED,
      usernames: [{ username: '<img src=x onerror=alert(1)>', date: '2025-01-01T00:00:00Z' }],
      punishments: [
        { id: 'old-1', typeOrdinal: 2, reason: 'xray', issued: '2025-01-02T00:00:00Z', duration: -1, active: true },
      ],
    },
    { minecraftUuid: JEB, usernames: [], punishments: [] },
  ],
});

let t: PanelTestService;
let admin: PanelClient;
beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('boss', 'alpha', 'admin');
  await t.addAccount('mod', 'alpha', 'moderator');
  admin = await t.loggedIn('boss');
});
afterAll(() => t.close());

/** Posts the migration form as a browser does: the CSRF field first, then the file. */
async function upload(client: PanelClient, content: string, withCsrf = true) {
  const form = new FormData();
  if (withCsrf && client.csrfToken) form.append('_csrf', client.csrfToken);
  form.append('migrationFile', new Blob([content], { type: 'application/json' }), 'export.json');
  const response = await fetch(`${t.service.url}/panel/migration`, {
    method: 'POST',
    headers: { cookie: `${SESSION_COOKIE}=${client.cookie(SESSION_COOKIE)}` },
    body: form,
    redirect: 'manual',
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
}

describe('migration page', () => {
  it('uploads a file, imports it in the background and shows the progress until completed', async () => {
    const page = await admin.get('/panel/migration');
    expect(page.status).toBe(200);
    expect(page.html).toContain('No uploads yet');
    const sent = await upload(admin, exportFile);
    expect(sent).toMatchObject({ status: 303, location: '/panel/migration' });
    let html = '';
    for (let attempt = 0; attempt < 100; attempt += 1) {
      html = (await admin.get('/panel/migration')).html;
      if (html.includes('>completed<')) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(html).toContain('>completed<');
    expect(html).toContain('panel (boss)');
    expect(html).toContain('imported 2 players and 1 punishments');
    expect(html).not.toContain('http-equiv="refresh"');
    expect(await t.stores.punishments.find(t.networkId('alpha'), 'old-1')).toMatchObject({ reason: 'xray' });
    const audit = await t.stores.auditLog.newest(t.networkId('alpha'), 10);
    expect(audit.map((entry) => `${entry.actor} ${entry.action}`)).toContain('boss migration.upload');
  });

  it('refuses a file that is not a migration file, next to the field', async () => {
    await admin.get('/panel/migration');
    const bad = await upload(admin, '{"users": []}');
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('the file: players is required');
  });

  it('refuses an upload without the CSRF token, and a role without migrate', async () => {
    await admin.get('/panel/migration');
    const forged = await upload(admin, exportFile, false);
    expect(forged.status).toBe(403);
    expect(forged.html).toContain('CSRF');
    const moderator = await t.loggedIn('mod');
    expect((await moderator.get('/panel/migration')).status).toBe(403);
    const refused = await upload(moderator, exportFile);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('migrate');
    const anonymous = await fetch(`${t.service.url}/panel/migration`, { method: 'POST', body: new FormData() });
    expect(anonymous.status).toBe(401);
  });
});
