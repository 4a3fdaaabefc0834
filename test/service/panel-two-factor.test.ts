import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelClient } from './helpers/panel-client.js';
import { PASSWORD, type PanelTestService, startPanelService } from './helpers/panel-service.js';

/** Issue 32, point 4: TOTP two-factor, recovery codes, required per role, reset by an admin. */
let t: PanelTestService;
let admin: PanelClient;
beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('boss', 'alpha', 'admin');
  admin = await t.loggedIn('boss');
});
afterAll(() => t.close());

const STEP_MS = 30_000;
const codeAt = (secret: string, nowMs: number) => generate({ secret, epoch: Math.floor(nowMs / 1000) });
const secretOn = (html: string) => /id="two-factor-secret">([^<]+)</.exec(html)![1]!.replaceAll(' ', '');
const recoveryCodesOn = (html: string) => [...html.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((m) => m[1]!);
const idOfUser = async (username: string) => (await t.stores.panelAccounts.findByUsername(username))!.id;
const auditActions = async () => (await t.stores.auditLog.newest(t.networkId('alpha'), 50)).map((e) => e.action);

/** Sets two-factor up through the account page; the secret and the recovery codes shown. */
async function enrol(client: PanelClient): Promise<{ secret: string; recoveryCodes: string[] }> {
  expect((await client.post('/panel/account/two-factor/start')).status).toBe(303);
  const page = await client.get('/panel/account');
  const secret = secretOn(page.html);
  const confirmed = await client.post('/panel/account/two-factor/confirm', {
    code: await codeAt(secret, t.clock.now()),
  });
  expect(confirmed.status).toBe(200);
  return { secret, recoveryCodes: recoveryCodesOn(confirmed.html) };
}

/** The password step of a login: the client then holds a session waiting for its code. */
async function passwordStep(client: PanelClient, username: string) {
  const form = await client.get('/panel/login');
  const loginToken = /name="_login" value="([^"]+)"/.exec(form.html)![1]!;
  return client.request('POST', '/panel/login', { _login: loginToken, username, password: PASSWORD });
}

async function codeStep(client: PanelClient, code: string) {
  await client.get('/panel/login/code');
  return client.post('/panel/login/code', { code, next: '/panel/players' });
}

describe('two-factor set up on the account page', () => {
  it('shows a QR code made locally and the key, and turns on only with a right code', async () => {
    await t.addAccount('setter', 'alpha', 'moderator');
    const client = await t.loggedIn('setter');
    const before = await client.get('/panel/account');
    expect(before.status).toBe(200);
    expect(before.html).toContain('data-field="two-factor">off');
    expect((await client.post('/panel/account/two-factor/start')).status).toBe(303);
    const page = await client.get('/panel/account');
    expect(page.html).toMatch(/<img id="two-factor-qr" src="data:image\/png;base64,[A-Za-z0-9+/=]+"/);
    expect(page.headers.get('content-security-policy')).toContain("img-src 'self' data:");
    const secret = secretOn(page.html);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    const wrong = await client.post('/panel/account/two-factor/confirm', { code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain('that code is not right');
    expect((await t.stores.panelAccounts.findByUsername('setter'))!.twoFactorEnabled).toBe(false);

    const confirmed = await client.post('/panel/account/two-factor/confirm', {
      code: await codeAt(secret, t.clock.now()),
    });
    expect(confirmed.status).toBe(200);
    const codes = recoveryCodesOn(confirmed.html);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await client.get('/panel/account')).html).toContain('10 unused recovery code(s) left');
    expect(recoveryCodesOn((await client.get('/panel/account')).html)).toEqual([]);

    const stored = t.db.prepare('SELECT code_hash FROM service_panel_recovery_codes').all() as { code_hash: Buffer }[];
    const storedText = stored.map((row) => row.code_hash.toString('latin1')).join();
    for (const code of codes) expect(storedText).not.toContain(code.replaceAll('-', ''));
    expect(await auditActions()).toContain('account.two-factor-enable');
  });
});

describe('logging in with two-factor', () => {
  let secret: string;
  let recoveryCodes: string[];
  beforeAll(async () => {
    await t.addAccount('twofa', 'alpha', 'moderator');
    ({ secret, recoveryCodes } = await enrol(await t.loggedIn('twofa')));
    t.clock.advance(STEP_MS);
  });

  it('asks for the code after the password, and the half-logged-in session opens nothing else', async () => {
    const client = t.client();
    const password = await passwordStep(client, 'twofa');
    expect(password.status).toBe(303);
    expect(password.location).toBe('/panel/login/code?next=%2Fpanel%2F');
    expect((await client.get('/panel/')).status).toBe(303);
    expect((await client.get('/panel/live')).status).toBe(303);
    const page = await client.get('/panel/login/code');
    expect(page.status).toBe(200);
    expect(page.html).toContain('name="code"');

    expect((await codeStep(client, '123456')).status).toBe(401);
    const done = await codeStep(client, await codeAt(secret, t.clock.now()));
    expect(done.status).toBe(303);
    expect(done.location).toBe('/panel/players');
    expect((await client.get('/panel/')).status).toBe(200);
    const login = (await t.stores.auditLog.newest(t.networkId('alpha'), 5)).find((e) => e.action === 'session.login');
    expect(login).toMatchObject({ actor: 'twofa', detail: { secondFactor: 'totp' } });
  });

  it('accepts a code once: the same code again is refused, the next one works', async () => {
    t.clock.advance(STEP_MS);
    const code = await codeAt(secret, t.clock.now());
    const first = t.client();
    await passwordStep(first, 'twofa');
    expect((await codeStep(first, code)).status).toBe(303);
    const again = t.client();
    await passwordStep(again, 'twofa');
    expect((await codeStep(again, code)).status).toBe(401);
    t.clock.advance(STEP_MS);
    expect((await codeStep(again, await codeAt(secret, t.clock.now()))).status).toBe(303);
  });

  it('accepts each recovery code once, in any case and with or without dashes', async () => {
    const client = t.client();
    await passwordStep(client, 'twofa');
    expect((await codeStep(client, recoveryCodes[0]!.toUpperCase().replaceAll('-', ' '))).status).toBe(303);
    const again = t.client();
    await passwordStep(again, 'twofa');
    expect((await codeStep(again, recoveryCodes[0]!)).status).toBe(401);
    expect((await codeStep(again, recoveryCodes[1]!)).status).toBe(303);
    expect((await again.get('/panel/account')).html).toContain('8 unused recovery code(s) left');
    const used = (await t.stores.auditLog.newest(t.networkId('alpha'), 5)).find((e) => e.action === 'session.login');
    expect(used).toMatchObject({ detail: { secondFactor: 'recovery-code' } });
  });

  it('throttles wrong codes as it does wrong passwords', async () => {
    await t.addAccount('slowcode', 'alpha', 'viewer');
    const own = await enrol(await t.loggedIn('slowcode'));
    const client = t.client();
    await passwordStep(client, 'slowcode');
    for (let n = 0; n < 5; n += 1) expect((await codeStep(client, '000000')).status).toBe(401);
    // A right code of the next step (its enrolment spent this one's) is refused as well.
    const refused = await codeStep(client, await codeAt(own.secret, t.clock.now() + STEP_MS));
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('too many failed logins');
  });

  it('sends back to the password when the code comes too late', async () => {
    const client = t.client();
    await passwordStep(client, 'twofa');
    t.clock.advance(5 * 60_000 + 1);
    const late = await codeStep(client, await codeAt(secret, t.clock.now()));
    expect(late.status).toBe(401);
    expect(late.html).toContain('log in again');
  });
});

describe('moving two-factor to a new phone', () => {
  it('needs a code of the current app, and the old key works until the new one is confirmed', async () => {
    await t.addAccount('mover', 'alpha', 'viewer');
    const client = await t.loggedIn('mover');
    const old = await enrol(client);
    t.clock.advance(STEP_MS);
    expect((await client.post('/panel/account/two-factor/start')).status).toBe(400);
    expect((await client.post('/panel/account/two-factor/start', { code: '000000' })).status).toBe(400);
    expect((await t.stores.panelAccounts.totpOf(await idOfUser('mover')))!.pendingSecret).toBeNull();
    const started = await client.post('/panel/account/two-factor/start', {
      code: await codeAt(old.secret, t.clock.now()),
    });
    expect(started.status).toBe(303);
    const secret = secretOn((await client.get('/panel/account')).html);
    expect(secret).not.toBe(old.secret);
    expect((await t.stores.panelAccounts.totpOf(await idOfUser('mover')))!.secret).toBe(old.secret);
    t.clock.advance(STEP_MS);
    const confirmed = await client.post('/panel/account/two-factor/confirm', {
      code: await codeAt(secret, t.clock.now()),
    });
    expect(confirmed.status).toBe(200);
    expect((await t.stores.panelAccounts.totpOf(await idOfUser('mover')))!.secret).toBe(secret);
    t.clock.advance(STEP_MS);
    const login = t.client();
    await passwordStep(login, 'mover');
    expect((await codeStep(login, await codeAt(old.secret, t.clock.now()))).status).toBe(401);
    expect((await codeStep(login, old.recoveryCodes[0]!)).status).toBe(401);
    expect((await codeStep(login, await codeAt(secret, t.clock.now()))).status).toBe(303);
  });
});

describe('two-factor required per role', () => {
  it('sends a holder without it to set it up, and lets them do nothing else until they have', async () => {
    await t.addAccount('required', 'alpha', 'helper');
    expect((await admin.post('/panel/roles/helper/two-factor', { required: 'yes' })).status).toBe(303);
    expect((await admin.get('/panel/roles')).html).toMatch(/data-role="helper"[\s\S]*?required/);
    const client = await t.loggedIn('required');
    const home = await client.get('/panel/');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/panel/account');
    expect((await client.get('/panel/tickets')).location).toBe('/panel/account');
    expect((await client.get('/panel/live')).status).toBe(303);
    const account = await client.get('/panel/account');
    expect(account.status).toBe(200);
    expect(account.html).toContain('Your role requires two-factor authentication in this network');
    const write = await client.post('/panel/punishments/none/evidence', { url: 'https://example.org' });
    expect(write.status).toBe(403);
    expect(write.html).toContain('requires two-factor authentication');

    await enrol(client);
    expect((await client.get('/panel/')).status).toBe(200);
    // Required: it cannot be turned off by its holder.
    const off = await client.post('/panel/account/two-factor/disable', { code: '000000' });
    expect(off.status).toBe(403);
    expect(await auditActions()).toContain('role.two-factor');
    expect((await admin.post('/panel/roles/helper/two-factor', { required: 'no' })).status).toBe(303);
  });

  it('lets a holder turn it off with a code when the role does not require it', async () => {
    await t.addAccount('optional', 'alpha', 'viewer');
    const client = await t.loggedIn('optional');
    const { secret } = await enrol(client);
    t.clock.advance(STEP_MS);
    expect((await client.post('/panel/account/two-factor/disable', { code: '000000' })).status).toBe(400);
    const off = await client.post('/panel/account/two-factor/disable', { code: await codeAt(secret, t.clock.now()) });
    expect(off.status).toBe(303);
    expect((await t.stores.panelAccounts.findByUsername('optional'))!.twoFactorEnabled).toBe(false);
    expect(
      await t.stores.panelRecoveryCodes.countUnused((await t.stores.panelAccounts.findByUsername('optional'))!.id),
    ).toBe(0);
    expect((await t.client().login('optional', PASSWORD)).status).toBe(303);
  });
});

describe("an admin resets a staff member's two-factor", () => {
  it('clears it, ends their sessions, writes the audit log; their next login needs no code', async () => {
    await t.addAccount('lostphone', 'alpha', 'moderator');
    const phone = await t.loggedIn('lostphone');
    await enrol(phone);
    const id = (await t.stores.panelAccounts.findByUsername('lostphone'))!.id;
    const reset = await admin.post(`/panel/accounts/${id}/two-factor/reset`);
    expect(reset.status).toBe(200);
    expect(reset.html).toContain('two-factor of lostphone reset');
    expect((await phone.get('/panel/')).status).toBe(303);
    expect(await t.stores.panelAccounts.totpOf(id)).toEqual({ secret: null, pendingSecret: null, lastStep: null });
    expect((await t.client().login('lostphone', PASSWORD)).location).toBe('/panel/');
    const entry = (await t.stores.auditLog.newest(t.networkId('alpha'), 10)).find(
      (e) => e.action === 'account.two-factor-reset',
    );
    expect(entry).toMatchObject({ actor: 'boss', subject: 'lostphone' });
    expect((await admin.post(`/panel/accounts/${id}/two-factor/reset`)).status).toBe(409);
  });

  it('is refused to a manager holding less than the account', async () => {
    await t.addAccount('bigboss', 'alpha', 'admin');
    await enrol(await t.loggedIn('bigboss'));
    const saved = await admin.post('/panel/roles', { name: 'usermgr', permissions: ['view', 'manage-users'] });
    expect(saved.status).toBe(303);
    await t.addAccount('mgr', 'alpha', 'usermgr');
    const mgr = await t.loggedIn('mgr');
    const id = (await t.stores.panelAccounts.findByUsername('bigboss'))!.id;
    const refused = await mgr.post(`/panel/accounts/${id}/two-factor/reset`);
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('holds permissions your role does not');
    expect((await t.stores.panelAccounts.findByUsername('bigboss'))!.twoFactorEnabled).toBe(true);
  });
});
