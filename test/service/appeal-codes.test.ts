import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS_ONLY_TARGET } from '../../src/contract/evasion-data.js';
import { decideAppeal } from '../../src/service/panel/appeals/decide-appeal.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { errorOf, JEB, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';
import { PanelClient } from './helpers/panel-client.js';

const APPEAL_TEXT = 'I was not cheating: my little brother played on my account that evening.';
const PASSWORD = 'correct horse battery';
const HOUR_MS = 3_600_000;
/** A player of network alpha registered by the tests' first login check. */
const ALEX = 'a1e8a1e8-0000-4000-8000-00000000a1e8';

interface CodeAnswer {
  success: boolean;
  punishmentId: string;
  outcome: string;
  code?: string;
  expiresAt?: string;
  appealableAt?: string;
}

/**
 * Appeals with proven identity, over HTTP on both databases: the service issues one-time appeal
 * codes (the extension a game server calls), and the appeal form takes only a live code of the
 * punished player (or of a player on an IP-banned address), once, within 24 hours; one open appeal
 * per punishment; a re-appeal cooldown after a denial the network sets; punishments staff marked
 * unappealable are refused with their own message.
 */
describe.each(['sqlite', 'postgres'] as const)('appeal codes on %s', (dialect) => {
  let database: TestDatabase | undefined;
  let t: TestService;

  beforeAll(async () => {
    database = dialect === 'postgres' ? await createTestDatabase() : undefined;
    t = await startTestService({ appealsPerHour: 1000, ...(database ? { databaseUrl: database.url } : {}) });
    const { stores, clock } = t.service.context;
    await t.call('POST', '/player/login', { minecraftUuid: ALEX, username: 'Alex' });
    await stores.panelAccounts.create({
      networkId: (await stores.networks.findNetwork('alpha'))!,
      username: 'mod',
      passwordHash: await hashPassword(PASSWORD),
      role: 'moderator',
      nowMs: clock.now(),
    });
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  async function punish(body: Record<string, unknown>, key?: string): Promise<string> {
    t.clock.advance(1000);
    const response = await t.call(
      'POST',
      '/punishments/dynamic',
      { typeOrdinal: 14, issuerName: 'mod', reason: 'cheating', ...body },
      key,
    );
    expect(response.status).toBe(200);
    return ((await response.json()) as { punishmentId: string }).punishmentId;
  }

  async function askCode(body: Record<string, unknown>, key?: string): Promise<CodeAnswer> {
    const response = await t.call('POST', '/appeals/code', body, key);
    expect(response.status).toBe(200);
    return (await response.json()) as CodeAnswer;
  }

  async function codeFor(punishmentId: string, playerUuid = NOTCH, playerName = 'Notch'): Promise<string> {
    const answer = await askCode({ punishmentId, playerUuid, playerName });
    expect(answer).toMatchObject({ success: true, punishmentId, outcome: 'issued' });
    return answer.code!;
  }

  function postAppeal(fields: Record<string, string>) {
    return fetch(`${t.service.url}/panel/appeal/alpha`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ message: APPEAL_TEXT, ...fields }).toString(),
      redirect: 'manual',
    });
  }

  /** The form's refusal of the code, as the page shows it next to the field. */
  async function codeError(fields: Record<string, string>): Promise<string | undefined> {
    const response = await postAppeal(fields);
    expect(response.status).toBe(400);
    return /id="code-error">([^<]*)</.exec(await response.text())?.[1];
  }

  async function appealWith(code: string, playerName = 'Notch'): Promise<{ statusPath: string; ticketId: string }> {
    const response = await postAppeal({ code, playerName });
    expect(response.status).toBe(303);
    const statusPath = response.headers.get('location')!;
    const appeal = await t.service.context.stores.appeals.byToken(statusPath.split('/').at(-1)!);
    return { statusPath, ticketId: appeal!.ticketId };
  }

  const deny = (ticketId: string) =>
    decideAppeal(t.service.context, {
      networkId: 1,
      ticketId,
      decision: 'deny',
      staff: { name: 'Admin' },
      answer: 'No.',
    });

  it('issues a code like ABCDE-FGHJK valid 24 hours; the form takes it once, in any case and spacing', async () => {
    const id = await punish({ targetUuid: NOTCH });
    const answer = await askCode({ punishmentId: id, playerUuid: NOTCH, playerName: 'Notch' });
    expect(answer.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(Date.parse(answer.expiresAt!)).toBe(t.clock.now() + 24 * HOUR_MS);
    // Only the hash is stored: the database holds no copy of the code.
    expect(await t.service.context.stores.appealCodes.byHash(1, Buffer.from(answer.code!))).toBeUndefined();

    const typed = ` ${answer.code!.toLowerCase().replace('-', ' ')} `;
    const { statusPath, ticketId } = await appealWith(typed, 'NOTCH');
    expect(await t.service.context.stores.tickets.find(1, ticketId)).toMatchObject({
      type: 'appeal',
      creatorUuid: NOTCH,
      creatorName: 'Notch',
      description: APPEAL_TEXT,
    });
    expect((await fetch(`${t.service.url}${statusPath}`)).status).toBe(200);

    await deny(ticketId);
    t.clock.advance(200 * HOUR_MS);
    expect(await codeError({ code: answer.code!, playerName: 'Notch' })).toContain('already used');
  });

  it('refuses a code after 24 hours', async () => {
    const id = await punish({ targetUuid: NOTCH });
    const code = await codeFor(id);
    t.clock.advance(24 * HOUR_MS);
    expect(await codeError({ code, playerName: 'Notch' })).toContain('has expired');
    // A fresh code works.
    await appealWith(await codeFor(id));
  });

  it("gives no code for another player's punishment, and a code works only with its player's name", async () => {
    const id = await punish({ targetUuid: NOTCH });
    expect(await askCode({ punishmentId: id, playerUuid: JEB, playerName: 'jeb_' })).toMatchObject({
      outcome: 'not-found',
    });
    expect(await askCode({ punishmentId: 'no-such-id', playerUuid: NOTCH, playerName: 'Notch' })).toMatchObject({
      outcome: 'not-found',
    });
    // Another network's key never reaches alpha's punishment.
    expect(await askCode({ punishmentId: id, playerUuid: NOTCH, playerName: 'Notch' }, KEY_B)).toMatchObject({
      outcome: 'not-found',
    });
    const code = await codeFor(id);
    const wrongName = await codeError({ code, playerName: 'jeb_' });
    const unknown = await codeError({ code: 'ZZZZZ-ZZZZZ', playerName: 'Notch' });
    expect(wrongName).toBe('this appeal code is not valid for this player name: check both, or get a new code');
    expect(unknown).toBe(wrongName);
    expect(await codeError({ code: 'let me in', playerName: 'Notch' })).toContain('must be the appeal code');
    expect(await codeError({ code: '', playerName: 'Notch' })).toContain('must not be empty');
    // Neither refusal used the code up.
    await appealWith(code);
  });

  it('opens one appeal per punishment at a time; a code is then refused and none is issued', async () => {
    const id = await punish({ targetUuid: JEB });
    const first = await codeFor(id, JEB, 'jeb_');
    const second = await codeFor(id, JEB, 'jeb_');
    expect(second).not.toBe(first);
    await appealWith(first, 'jeb_');
    expect(await codeError({ code: second, playerName: 'jeb_' })).toBe('this punishment already has an open appeal');
    expect(await askCode({ punishmentId: id, playerUuid: JEB, playerName: 'jeb_' })).toMatchObject({
      outcome: 'open-appeal',
    });
  });

  it('after a denial the network cooldown applies to codes and the form; the status page says when', async () => {
    const id = await punish({ targetUuid: ALEX });
    const early = await codeFor(id, ALEX, 'Alex');
    const { statusPath, ticketId } = await appealWith(await codeFor(id, ALEX, 'Alex'), 'Alex');
    expect((await deny(ticketId)).ok).toBe(true);
    const deniedAt = t.clock.now();

    const cooling = await askCode({ punishmentId: id, playerUuid: ALEX, playerName: 'Alex' });
    expect(cooling).toMatchObject({
      outcome: 'cooldown',
      appealableAt: new Date(deniedAt + 168 * HOUR_MS).toISOString(),
    });
    expect(await codeError({ code: early, playerName: 'Alex' })).toContain(
      'your last appeal of this punishment was denied: you can appeal again after',
    );
    const status = await (await fetch(`${t.service.url}${statusPath}`)).text();
    expect(status).toContain('Denied: the punishment stays');
    expect(status).toMatch(/id="next-appeal">You may appeal again after \d{4}-\d\d-\d\d \d\d:\d\d UTC/);

    // The network sets its own cooldown through the admin API.
    const bad = await t.admin('PATCH', '/networks/alpha/settings', { appealCooldownHours: -1 });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('appealCooldownHours');
    const set = await t.admin('PATCH', '/networks/alpha/settings', { appealCooldownHours: 2 });
    expect(await set.json()).toMatchObject({ appealCooldownHours: 2 });
    expect(await askCode({ punishmentId: id, playerUuid: ALEX, playerName: 'Alex' })).toMatchObject({
      outcome: 'cooldown',
      appealableAt: new Date(deniedAt + 2 * HOUR_MS).toISOString(),
    });
    t.clock.advance(2 * HOUR_MS);
    await appealWith(early, 'Alex');
    await t.admin('PATCH', '/networks/alpha/settings', { appealCooldownHours: 168 });
  });

  it('a punishment staff mark unappealable gets no code, and the form says so', async () => {
    const id = await punish({ targetUuid: NOTCH });
    const before = await codeFor(id);
    // Logged in now: the tests before moved the clock past older sessions.
    const moderator = new PanelClient(t.service.url);
    expect((await moderator.login('mod', PASSWORD)).status).toBe(303);
    const page = await moderator.get(`/panel/players/${NOTCH}`);
    expect(page.html).toContain(`action="/panel/punishments/${id}/appealable"`);
    const marked = await moderator.post(`/panel/punishments/${id}/appealable`, { appealable: 'no' });
    expect(marked.status).toBe(303);
    const after = await moderator.get(`/panel/players/${NOTCH}`);
    const article = after.html.slice(after.html.indexOf(`id="punishment-${id}"`));
    expect(article.slice(0, article.indexOf('</article>'))).toContain('data-field="unappealable"');
    const audit = await moderator.get('/panel/audit');
    expect(audit.html).toContain('punishment.unappealable');

    expect(await askCode({ punishmentId: id, playerUuid: NOTCH, playerName: 'Notch' })).toMatchObject({
      outcome: 'unappealable',
    });
    expect(await codeError({ code: before, playerName: 'Notch' })).toBe(
      'this punishment cannot be appealed: the staff marked it so',
    );
    await moderator.post(`/panel/punishments/${id}/appealable`, { appealable: 'yes' });
    await appealWith(before);
  });

  it('an IP ban gives a code to a player on its address only; their appeal is theirs', async () => {
    const id = await punish({ targetUuid: ADDRESS_ONLY_TARGET, typeOrdinal: 2, data: { ipAddress: '203.0.113.0/24' } });
    const onIt = { punishmentId: id, playerUuid: JEB, playerName: 'jeb_' };
    expect(await askCode(onIt)).toMatchObject({ outcome: 'not-found' });
    expect(await askCode({ ...onIt, ipAddress: '198.51.100.9' })).toMatchObject({ outcome: 'not-found' });
    const answer = await askCode({ ...onIt, ipAddress: '203.0.113.9' });
    expect(answer.outcome).toBe('issued');
    // The id alone is not enough any more: the name must be that of the player the code was given to.
    expect(await codeError({ code: answer.code!, playerName: 'IP address' })).toContain('not valid for this player');
    const { ticketId } = await appealWith(answer.code!, 'jeb_');
    expect(await t.service.context.stores.tickets.find(1, ticketId)).toMatchObject({ creatorUuid: JEB });
  });

  it('an IP ban, which has no player page, is marked unappealable through the admin API', async () => {
    const id = await punish({
      targetUuid: ADDRESS_ONLY_TARGET,
      typeOrdinal: 2,
      data: { ipAddress: '198.51.100.0/24' },
    });
    const onIt = { punishmentId: id, playerUuid: NOTCH, playerName: 'Notch', ipAddress: '198.51.100.4' };
    const before = (await askCode(onIt)).code!;
    const marked = await t.admin('POST', `/networks/alpha/punishments/${id}/appealable`, { appealable: false });
    expect(await marked.json()).toEqual({ success: true, changed: true, appealable: false, markedBy: 'admin token' });
    expect(await askCode(onIt)).toMatchObject({ outcome: 'unappealable' });
    expect(await codeError({ code: before, playerName: 'Notch' })).toContain('cannot be appealed');
    const bad = await t.admin('POST', `/networks/alpha/punishments/${id}/appealable`, { appealable: 'no' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('appealable');
    expect((await t.admin('POST', '/networks/alpha/punishments/nope/appealable', { appealable: true })).status).toBe(
      404,
    );
    await t.admin('POST', `/networks/alpha/punishments/${id}/appealable`, { appealable: true });
    await appealWith(before);
  });

  it('gives no code for a punishment that no longer holds; a warning may be appealed', async () => {
    const pardoned = await punish({ targetUuid: NOTCH });
    await t.call('POST', `/punishments/${pardoned}/pardon`, { issuerName: 'mod' });
    expect(await askCode({ punishmentId: pardoned, playerUuid: NOTCH, playerName: 'Notch' })).toMatchObject({
      outcome: 'inactive',
    });
    const temporary = await punish({ targetUuid: NOTCH, typeOrdinal: 6, duration: HOUR_MS });
    await t.call('POST', '/punishments/acknowledge', { punishmentId: temporary, playerUuid: NOTCH, success: true });
    const code = await codeFor(temporary);
    t.clock.advance(HOUR_MS);
    expect(await codeError({ code, playerName: 'Notch' })).toBe(
      'this punishment is expired: there is nothing to appeal',
    );

    const warning = await punish({ targetUuid: NOTCH, typeOrdinal: 6, duration: 0, status: 'warning' });
    await appealWith(await codeFor(warning));
  });
});
