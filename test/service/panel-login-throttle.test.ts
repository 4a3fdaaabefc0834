import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAgents } from './helpers/http-from.js';
import { PASSWORD, type PanelTestService, startPanelService } from './helpers/panel-service.js';

/**
 * Issue 32, point 4: strangers cannot lock a staff member out. Wrong passwords count by client
 * address, by username and address, and by username only for devices that never logged in to
 * that account; a device that did carries a cookie and is counted on its own (OWASP's device
 * cookies). Clients send from different loopback addresses, as different machines would.
 */
let t: PanelTestService;
beforeAll(async () => {
  t = await startPanelService();
  for (const name of ['owner', 'pairs', 'other', 'cookies']) await t.addAccount(name, 'alpha', 'moderator');
});
afterAll(async () => {
  closeAgents();
  await t.close();
});

const deviceCookie = async (username: string) =>
  `bailiff_device_${(await t.stores.panelAccounts.findByUsername(username))!.id}`;
const MINUTE_MS = 60_000;

/** Five wrong passwords for `username`, each from an address of its own (127.0.<block>.1-5). */
async function strangersGuess(username: string, block: number) {
  for (let n = 1; n <= 5; n += 1) {
    expect((await t.client(`127.0.${block}.${n}`).login(username, 'a wrong guess')).status).toBe(401);
  }
}

describe('staff logins cannot be locked out by strangers', () => {
  it("lets the owner in from a device that logged in before, after strangers' wrong passwords from five addresses", async () => {
    const laptop = t.client('127.0.1.100');
    expect((await laptop.login('owner', PASSWORD)).status).toBe(303);
    expect((await laptop.post('/panel/logout')).status).toBe(303);
    expect(laptop.cookie(await deviceCookie('owner'))).toBeDefined();

    await strangersGuess('owner', 2);

    const back = await laptop.login('owner', PASSWORD);
    expect(back.status).toBe(303);
    // A new device (no cookie), even from an address that never guessed, meets the username's limit.
    const newPhone = t.client('127.0.1.101');
    const refused = await newPhone.login('owner', PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.html).toContain('too many failed logins');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The stranger's own tries are refused too, right password or not.
    expect((await t.client('127.0.2.1').login('owner', PASSWORD)).status).toBe(429);

    t.clock.advance(MINUTE_MS);
    expect((await newPhone.login('owner', PASSWORD)).status).toBe(303);
  });

  it('keeps one wrong try every 12 s from locking the owner out for good', async () => {
    const laptop = t.client('127.0.3.100');
    expect((await laptop.login('other', PASSWORD)).status).toBe(303);
    await strangersGuess('other', 4);
    for (let round = 0; round < 6; round += 1) {
      t.clock.advance(12_000);
      expect((await t.client(`127.0.4.${round + 10}`).login('other', 'guess')).status).toBe(401);
      expect((await laptop.login('other', PASSWORD)).status).toBe(303);
    }
    // The stranger did keep the username's allowance spent: only known devices get in.
    expect((await t.client('127.0.3.101').login('other', PASSWORD)).status).toBe(429);
  });

  it('counts a device that logged in before on its own, and each username at each address', async () => {
    const desk = t.client('127.0.5.1');
    expect((await desk.login('pairs', PASSWORD)).status).toBe(303);
    const deskCookie = desk.cookie(await deviceCookie('pairs'))!;
    for (let n = 0; n < 5; n += 1) expect((await desk.login('pairs', 'typo')).status).toBe(401);
    // This device's allowance is spent, wherever it goes...
    const deskElsewhere = t.client('127.0.5.2');
    deskElsewhere.setCookie(await deviceCookie('pairs'), deskCookie);
    expect((await deskElsewhere.login('pairs', PASSWORD)).status).toBe(429);
    // ...and so is this username's at this address, whatever the device...
    const secondBrowser = t.client('127.0.5.1');
    expect((await secondBrowser.login('pairs', PASSWORD)).status).toBe(429);
    // ...but a new device elsewhere is untouched: the owner's own typos did not spend the username's.
    expect((await t.client('127.0.5.3').login('pairs', PASSWORD)).status).toBe(303);
  });

  it('refuses every login from an address after ten wrong passwords, whatever the usernames', async () => {
    for (let n = 0; n < 10; n += 1) {
      expect((await t.client('127.0.6.1').login(`nobody-${n}`, 'guess')).status).toBe(401);
    }
    expect((await t.client('127.0.6.1').login('cookies', PASSWORD)).status).toBe(429);
    expect((await t.client('127.0.6.2').login('cookies', PASSWORD)).status).toBe(303);
  });

  it('sets the device cookie HttpOnly, SameSite=Strict, for the login pages only, long-lived, and stores its hash only', async () => {
    const client = t.client('127.0.7.1');
    const answer = await client.login('cookies', PASSWORD);
    const name = await deviceCookie('cookies');
    const line = answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Path=\/panel\/login(;|$)/);
    expect(Number(/Max-Age=(\d+)/i.exec(line)![1])).toBeGreaterThanOrEqual(90 * 24 * 60 * 60);
    const token = client.cookie(await deviceCookie('cookies'))!;
    const stored = t.db.prepare('SELECT token_hash AS hash FROM service_panel_devices').all() as { hash: Buffer }[];
    const hash = createHash('sha256').update(token).digest();
    expect(stored.some((row) => row.hash.equals(hash))).toBe(true);
    expect(stored.some((row) => row.hash.toString('utf8').includes(token))).toBe(false);
  });

  it("trusts neither a made-up device cookie nor another account's", async () => {
    await t.addAccount('victim', 'alpha', 'viewer');
    const mine = t.client('127.0.8.1');
    expect((await mine.login('cookies', PASSWORD)).status).toBe(303);
    await strangersGuess('victim', 9);
    const forged = t.client('127.0.8.2');
    forged.setCookie(await deviceCookie('victim'), 'made-up-token');
    expect((await forged.login('victim', PASSWORD)).status).toBe(429);
    const borrowed = t.client('127.0.8.3');
    borrowed.setCookie(await deviceCookie('victim'), mine.cookie(await deviceCookie('cookies'))!);
    expect((await borrowed.login('victim', PASSWORD)).status).toBe(429);
  });
});
