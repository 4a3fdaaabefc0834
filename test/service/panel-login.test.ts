import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAgents } from './helpers/http-from.js';
import { PASSWORD, type PanelTestService, startPanelService } from './helpers/panel-service.js';

let t: PanelTestService;
beforeAll(async () => {
  t = await startPanelService({ authFailuresPerMinute: 100 });
  await t.addAccount('alice', 'alpha', 'admin');
  await t.addAccount('victim', 'alpha', 'viewer');
  await t.addAccount('gone', 'alpha', 'viewer');
});
afterAll(async () => {
  closeAgents();
  await t.close();
});

describe('panel login and sessions', () => {
  it('sends a visitor without a session to the login page', async () => {
    const page = await t.client().get('/panel/');
    expect(page.status).toBe(303);
    expect(page.location).toBe('/panel/login?next=%2Fpanel%2F');
  });

  it('logs in, sets a HttpOnly SameSite=Strict cookie on /panel, and shows the dashboard', async () => {
    const client = t.client();
    const form = await client.get('/panel/login');
    expect(form.status).toBe(200);
    const loginToken = /name="_login" value="([^"]+)"/.exec(form.html)![1]!;
    const answer = await client.request('POST', '/panel/login', {
      _login: loginToken,
      username: 'alice',
      password: PASSWORD,
    });
    expect(answer.status).toBe(303);
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('bailiff_panel='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/panel/);
    expect(cookie).not.toMatch(/Secure/i);
    const dashboard = await client.get('/panel/');
    expect(dashboard.status).toBe(200);
    expect(dashboard.html).toContain('alice');
    expect(dashboard.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('marks the cookie Secure on every request when the owner says an HTTPS proxy is in front', async () => {
    const proxied = await startPanelService({ panelSecureCookies: true });
    try {
      await proxied.addAccount('carol', 'alpha', 'viewer');
      const client = proxied.client();
      const form = await client.get('/panel/login');
      const loginToken = /name="_login" value="([^"]+)"/.exec(form.html)![1]!;
      const answer = await client.request('POST', '/panel/login', {
        _login: loginToken,
        username: 'carol',
        password: PASSWORD,
      });
      const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('bailiff_panel='))!;
      expect(cookie).toMatch(/;\s*Secure/i);
    } finally {
      await proxied.close();
    }
  });

  it('stores only a hash of the session id', async () => {
    const client = await t.loggedIn('alice');
    const sessionId = client.cookie('bailiff_panel')!;
    const rows = t.db.prepare('SELECT hex(id_hash) AS hash FROM service_panel_sessions').all() as { hash: string }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((row) => row.hash.includes(Buffer.from(sessionId).toString('hex').toUpperCase()))).toBe(false);
  });

  it('refuses a wrong password with the same answer as an unknown user', async () => {
    const wrong = await t.client().login('alice', 'not the password');
    const unknown = await t.client().login('nobody', 'not the password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.html).toContain('wrong username or password');
    expect(unknown.html).toContain('wrong username or password');
  });

  it('refuses a login form posted without its own token (from another site)', async () => {
    const answer = await t.client().request('POST', '/panel/login', { username: 'alice', password: PASSWORD });
    expect(answer.status).toBe(403);
  });

  it('throttles wrong passwords per account for devices that never logged in to it, from any address, and tells when to retry', async () => {
    for (let n = 0; n < 5; n += 1)
      expect((await t.client(`127.0.9.${n + 1}`).login('victim', 'guess')).status).toBe(401);
    const refused = await t.client('127.0.9.99').login('victim', PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('too many failed logins');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    t.clock.advance(60_000);
    expect((await t.client().login('victim', PASSWORD)).status).toBe(303);
  });

  it('ends the session after its lifetime (12 hours) and on logout', async () => {
    const client = await t.loggedIn('alice');
    expect((await client.get('/panel/')).status).toBe(200);
    t.clock.advance(12 * 60 * 60 * 1000 + 1);
    expect((await client.get('/panel/')).status).toBe(303);
    const again = await t.loggedIn('alice');
    expect((await again.post('/panel/logout')).status).toBe(303);
    expect((await again.get('/panel/')).status).toBe(303);
  });

  it('ends the sessions of a disabled account at once', async () => {
    await t.addAccount('temp', 'alpha', 'viewer');
    const client = await t.loggedIn('temp');
    const account = await t.stores.panelAccounts.findByUsername('temp');
    await t.stores.panelAccounts.setDisabled(account!.id, true, t.clock.now());
    expect((await client.get('/panel/')).status).toBe(303);
    expect((await t.client().login('temp', PASSWORD)).status).toBe(401);
  });

  it("refuses a write without the CSRF token, and with another session's token", async () => {
    const client = await t.loggedIn('alice');
    const other = await t.loggedIn('alice');
    expect((await client.post('/panel/logout', {}, false)).status).toBe(403);
    expect((await client.post('/panel/logout', { _csrf: other.csrfToken! })).status).toBe(403);
    expect((await client.get('/panel/')).status).toBe(200);
  });

  it('serves the bundled stylesheet and script under /panel/assets/', async () => {
    const css = await t.client().get('/panel/assets/panel.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    const script = await t.client().get('/panel/assets/panel.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });

  it('lets a superuser switch networks, and nobody else', async () => {
    await t.addAccount('root', undefined, 'admin');
    const root = await t.loggedIn('root');
    const first = await root.get('/panel/');
    expect(first.html).toContain('name="networkId"');
    const switched = await root.post('/panel/network', { networkId: String(t.networkId('beta')) });
    expect(switched.status).toBe(303);
    expect((await root.get('/panel/')).html).toContain('data-id="beta-ban"');
    expect((await root.post('/panel/network', { networkId: '999' })).status).toBe(400);
    const alice = await t.loggedIn('alice');
    expect((await alice.post('/panel/network', { networkId: String(t.networkId('beta')) })).status).toBe(403);
    expect((await alice.get('/panel/')).html).not.toContain('beta-ban');
  });

  it('never redirects outside the panel after login', async () => {
    const client = t.client();
    const form = await client.get('/panel/login?next=https://evil.example/');
    expect(form.html).toContain('name="next" value="/panel/"');
  });
});
