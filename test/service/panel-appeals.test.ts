import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideAppeal } from '../../src/service/panel/appeals/decide-appeal.js';
import { DINNERBONE, JEB, KEY_B, NOTCH, startTestService, type TestService } from './helpers/fixture.js';

const APPEAL_TEXT = 'I was not cheating, my friend used my account <script>alert(1)</script> "><';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ appealsPerHour: 100 });
});
afterAll(() => t.close());

async function ban(target = NOTCH, key?: string): Promise<string> {
  t.clock.advance(1000);
  const response = await t.call(
    'POST',
    '/punishments/dynamic',
    {
      targetUuid: target,
      typeOrdinal: 14,
      issuerName: 'mod',
      reason: 'cheating',
    },
    key,
  );
  return ((await response.json()) as { punishmentId: string }).punishmentId;
}

/** A one-time appeal code for the player, as a game server asks for it. */
async function codeFor(punishmentId: string, playerUuid = NOTCH, playerName = 'Notch', key?: string): Promise<string> {
  const response = await t.call('POST', '/appeals/code', { punishmentId, playerUuid, playerName }, key);
  const answer = (await response.json()) as { outcome: string; code: string };
  expect(answer.outcome).toBe('issued');
  return answer.code;
}

/** Posts the appeal form as a browser does, from a given client address header-free (loopback). */
function postAppeal(network: string, fields: Record<string, string>) {
  return fetch(`${t.service.url}/panel/appeal/${network}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

const get = (path: string) => fetch(`${t.service.url}${path}`, { redirect: 'manual' });

async function ticketIdOf(statusPath: string): Promise<string> {
  const token = statusPath.split('/').at(-1)!;
  const appeal = await t.service.context.stores.appeals.byToken(token);
  return appeal!.ticketId;
}

describe('appeals', () => {
  it('shows the form; an unknown network is a 404 page', async () => {
    const form = await get('/panel/appeal/alpha');
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('name="code"');
    expect(html).not.toContain('name="punishmentId"');
    // What was typed comes back escaped.
    const typed = await postAppeal('alpha', { code: 'abc"><b>', playerName: 'Notch', message: 'short' });
    expect(await typed.text()).toContain('value="abc&quot;&gt;&lt;b&gt;"');
    expect((await get('/panel/appeal/nowhere')).status).toBe(404);
    // Two networks: /panel/appeal alone cannot know which.
    const bare = await get('/panel/appeal');
    expect(bare.status).toBe(404);
    expect(await bare.text()).toContain('it names the network');
  });

  it('an appeal becomes an appeal ticket; the private link shows it, then the accepted answer, and the ban is pardoned', async () => {
    const id = await ban();
    const sent = await postAppeal('alpha', { code: await codeFor(id), playerName: 'notch', message: APPEAL_TEXT });
    expect(sent.status).toBe(303);
    const statusPath = sent.headers.get('location')!;
    expect(statusPath).toMatch(/^\/panel\/appeal\/status\/[A-Za-z0-9_-]{43}$/);

    const ticketId = await ticketIdOf(statusPath);
    const ticket = (await t.service.context.stores.tickets.find(1, ticketId))!;
    expect(ticket).toMatchObject({ type: 'appeal', status: 'Open', creatorUuid: NOTCH, description: APPEAL_TEXT });

    const waiting = await get(statusPath);
    expect(waiting.headers.get('cache-control')).toBe('no-store');
    // The private link never leaves in a Referer header for another site.
    expect(['same-origin', 'no-referrer']).toContain(waiting.headers.get('referrer-policy'));
    const waitingHtml = await waiting.text();
    expect(waitingHtml).toContain('Waiting for an answer');
    expect(waitingHtml).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;');
    expect(waitingHtml).not.toContain('<script>');

    const outcome = await decideAppeal(t.service.context, {
      networkId: 1,
      ticketId,
      decision: 'accept',
      staff: { name: 'Admin' },
      answer: 'Accepted <img src=x onerror=alert(1)>',
    });
    expect(outcome).toEqual({ ok: true, status: 'accepted', punishmentId: id, pardoned: true });
    const admin = (await (await t.admin('GET', `/networks/alpha/punishments/${id}`)).json()) as {
      punishment: { status: string };
      pardon: { issuerName: string; server: string | null };
    };
    expect(admin.punishment.status).toBe('pardoned');
    expect(admin.pardon).toMatchObject({ issuerName: 'Admin', server: null });
    expect(await t.service.context.stores.tickets.find(1, ticketId)).toMatchObject({
      status: 'Closed',
      replies: [{ authorName: 'Admin', message: 'Accepted <img src=x onerror=alert(1)>' }],
    });

    const answered = await (await get(statusPath)).text();
    expect(answered).toContain('Accepted: the punishment was lifted');
    expect(answered).toContain('Accepted &lt;img src=x onerror=alert(1)&gt;');

    const again = await decideAppeal(t.service.context, {
      networkId: 1,
      ticketId,
      decision: 'deny',
      staff: { name: 'Other' },
      answer: 'no',
    });
    expect(again).toEqual({ ok: false, problem: 'already-decided' });
  });

  it('a denied appeal keeps the ban active and the player reads why', async () => {
    const id = await ban(JEB);
    const sent = await postAppeal('alpha', {
      code: await codeFor(id, JEB, 'jeb_'),
      playerName: 'jeb_',
      message: APPEAL_TEXT,
    });
    const statusPath = sent.headers.get('location')!;
    const ticketId = await ticketIdOf(statusPath);
    const outcome = await decideAppeal(t.service.context, {
      networkId: 1,
      ticketId,
      decision: 'deny',
      staff: { name: 'Admin' },
      answer: 'The logs show otherwise.',
    });
    expect(outcome).toMatchObject({ ok: true, status: 'denied', pardoned: false });
    expect((await t.service.context.stores.punishments.find(1, id))!.status).toBe('active');
    const html = await (await get(statusPath)).text();
    expect(html).toContain('Denied: the punishment stays');
    expect(html).toContain('The logs show otherwise.');
  });

  it('refuses with the reason next to the field: wrong name, unknown code, short text, a second open appeal', async () => {
    const id = await ban();
    const code = await codeFor(id);
    const wrongName = await postAppeal('alpha', { code, playerName: 'jeb_', message: APPEAL_TEXT });
    expect(wrongName.status).toBe(400);
    const wrongNameHtml = await wrongName.text();
    expect(wrongNameHtml).toMatch(/id="code-error">this appeal code is not valid for this player name/);
    const unknown = await postAppeal('alpha', { code: 'AAAAA-AAAAA', playerName: 'Notch', message: APPEAL_TEXT });
    expect(await unknown.text()).toContain('this appeal code is not valid for this player name');
    const short = await postAppeal('alpha', { code, playerName: 'Notch', message: 'let me in' });
    expect(short.status).toBe(400);
    const shortHtml = await short.text();
    expect(shortHtml).toMatch(/id="message-error">must be at least 20 characters</);
    expect(shortHtml).toContain('>let me in</textarea>');

    const other = await codeFor(id);
    expect((await postAppeal('alpha', { code, playerName: 'Notch', message: APPEAL_TEXT })).status).toBe(303);
    const second = await postAppeal('alpha', { code: other, playerName: 'Notch', message: APPEAL_TEXT });
    expect(second.status).toBe(400);
    expect(await second.text()).toContain('this punishment already has an open appeal');
  });

  it("never reaches another network's punishment", async () => {
    const betaBan = await ban(DINNERBONE, KEY_B);
    const betaCode = await codeFor(betaBan, DINNERBONE, 'Dinnerbone', KEY_B);
    const response = await postAppeal('alpha', { code: betaCode, playerName: 'Dinnerbone', message: APPEAL_TEXT });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('this appeal code is not valid for this player name');
    const decided = await decideAppeal(t.service.context, {
      networkId: 2,
      ticketId: 'id-1',
      decision: 'accept',
      staff: { name: 'x' },
      answer: 'x',
    });
    expect(decided).toEqual({ ok: false, problem: 'not-an-appeal' });
  });

  it('an unknown or malformed private link is a 404 page', async () => {
    expect((await get(`/panel/appeal/status/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await get('/panel/appeal/status/short')).status).toBe(404);
  });
});

describe('appeal throttle', () => {
  it('counts submissions per address, refused ones included, and refills with time', async () => {
    const own = await startTestService({ appealsPerHour: 2 });
    try {
      const attempt = () =>
        fetch(`${own.service.url}/panel/appeal/alpha`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ code: 'GUESS-00000', playerName: 'Notch', message: APPEAL_TEXT }).toString(),
        });
      expect((await attempt()).status).toBe(400);
      expect((await attempt()).status).toBe(400);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.text()).toContain('Too many appeals from your address');
      own.clock.advance(31 * 60_000);
      expect((await attempt()).status).toBe(400);
      expect((await attempt()).status).toBe(429);
    } finally {
      await own.close();
    }
  });
});
