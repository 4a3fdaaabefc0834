import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_PAGE_SIZE } from '../../src/service/panel/routes/public-list.js';
import { DINNERBONE, JEB, KEY_B, NOTCH, startTestService, type TestService, testSeed } from './helpers/fixture.js';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const XSS = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><b>'];
const ADDRESS = '203.0.113.77';
/** A player name (at most 16 characters) that is markup. */
const MARKUP_NAME = '<img src=x>"><';
const MARKUP_NAME_SHOWN = '&lt;img src=x&gt;&quot;&gt;&lt;';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
  // The seed leaves the switch off; the owner turns alpha's list on through the admin API.
  expect(await (await t.admin('PATCH', '/networks/alpha/settings', { publicList: true })).json()).toMatchObject({
    publicList: true,
    publicIssuerLabel: 'Staff',
  });
  await t.admin('POST', '/networks/alpha/players', { uuid: JEB, name: MARKUP_NAME });
});
afterAll(() => t.close());

async function create(body: Record<string, unknown>, key?: string): Promise<string> {
  t.clock.advance(1000);
  const response = await t.call('POST', '/punishments/dynamic', { issuerName: 'mod', ...body }, key);
  expect(response.status).toBe(200);
  return ((await response.json()) as { punishmentId: string }).punishmentId;
}

const page = (path: string) => fetch(`${t.service.url}${path}`, { redirect: 'manual' });

describe('public ban list', () => {
  it('is off by default: a network whose owner did not switch it on is a 404 page, like an unknown one', async () => {
    await create({ targetUuid: DINNERBONE, typeOrdinal: 2, reason: 'beta secret reason' }, KEY_B);
    for (const path of ['/panel/public/beta/', '/panel/public/nowhere/', `/panel/public/beta/player/${DINNERBONE}`]) {
      const response = await page(path);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain('no public list');
      expect(html).not.toContain('beta secret reason');
    }
    expect(await (await t.admin('GET', '/networks/beta/settings')).json()).toMatchObject({
      publicList: false,
      publicIssuerLabel: 'Staff',
    });
  });

  it('lists bans, mutes, warnings and kicks newest first, names and reasons shown as text', async () => {
    await create({ targetUuid: NOTCH, typeOrdinal: 2, reason: `${XSS[1]} ${XSS[2]}`, issuerName: XSS[2] });
    await create({ targetUuid: NOTCH, typeOrdinal: 6, reason: `chat spam ${XSS[0]}`, duration: 3_600_000 });
    await create({ targetUuid: JEB, typeOrdinal: 0, reason: 'kicked for afk', duration: 0 });
    await create({ targetUuid: JEB, typeOrdinal: 7, reason: 'be nice', status: 'warning', duration: 0 });
    const response = await page('/panel/public/alpha/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await response.text();
    for (const payload of XSS) expect(html).not.toContain(payload);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('&quot;&gt;&lt;b&gt;');
    expect(html).toContain(MARKUP_NAME_SHOWN);
    expect(html).not.toContain(MARKUP_NAME);
    // Issuers are the network's label, never the name staff gave.
    expect(html).toContain('<td>Staff</td>');
    expect(html).not.toContain('>mod<');
    const order = ['be nice', 'kicked for afk', 'chat spam', 'onerror'].map((text) => html.indexOf(text));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).not.toContain('beta secret reason');
  });

  it('filters by kind', async () => {
    const mutes = await (await page('/panel/public/alpha/?kind=mute')).text();
    expect(mutes).toContain('chat spam');
    expect(mutes).not.toContain('kicked for afk');
    const warnings = await (await page('/panel/public/alpha/?kind=warning')).text();
    expect(warnings).toContain('be nice');
    expect(warnings).not.toContain('chat spam');
    const wrong = await page('/panel/public/alpha/?kind=banana');
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('kind: must be one of');
  });

  it('never shows an address: an IP ban is listed without it, and addresses in reasons are hidden', async () => {
    await create({
      targetUuid: NIL_UUID,
      typeOrdinal: 2,
      reason: `evading from ${ADDRESS} and 2001:db8::7`,
      data: { ipAddress: ADDRESS },
    });
    await create({ targetUuid: NOTCH, typeOrdinal: 2, reason: `alt of ${ADDRESS}:25565` });
    const html = await (await page('/panel/public/alpha/')).text();
    expect(html).toContain('IP ban');
    expect(html).toContain('evading from [address hidden] and [address hidden]');
    expect(html).toContain('alt of [address hidden]<');
    expect(html).not.toContain(ADDRESS);
    expect(html).not.toContain('2001:db8::7');
    expect(html).not.toContain('ipAddress');
    expect(html).not.toContain(`player/${NIL_UUID}`);
  });

  it('search by name leads to the player page with their history only', async () => {
    const search = await page(`/panel/public/alpha/?player=${encodeURIComponent(MARKUP_NAME)}`);
    expect(search.status).toBe(303);
    expect(search.headers.get('location')).toBe(`/panel/public/alpha/player/${JEB}`);
    const html = await (await page(search.headers.get('location')!)).text();
    expect(html).toContain(`${MARKUP_NAME_SHOWN}</h1>`);
    expect(html).toContain('kicked for afk');
    expect(html).not.toContain('chat spam');
    const missing = await (await page('/panel/public/alpha/?player=%3Cimg%20src%3Dx%3E')).text();
    expect(missing).toContain('No player named &lt;img src=x&gt; has been seen');
    const otherNetwork = await page(`/panel/public/alpha/player/${DINNERBONE}`);
    expect(otherNetwork.status).toBe(404);
  });

  it('pages by keyset: every row once, newest first, an older link until the end', async () => {
    const ids = new Set<string>();
    for (let index = 0; index < PUBLIC_PAGE_SIZE + 5; index += 1) {
      ids.add(await create({ targetUuid: NOTCH, typeOrdinal: 1, reason: `page-row-${index}-end`, duration: 60_000 }));
    }
    const seen: number[] = [];
    let path: string | null = '/panel/public/alpha/?kind=mute';
    for (let pages = 0; path && pages < 10; pages += 1) {
      const html: string = await (await page(path)).text();
      for (const match of html.matchAll(/page-row-(\d+)-end/g)) seen.push(Number(match[1]));
      const next: RegExpMatchArray | null = /rel="next" href="([^"]+)"/.exec(html);
      path = next ? next[1]!.replaceAll('&amp;', '&') : null;
    }
    const expected = Array.from({ length: PUBLIC_PAGE_SIZE + 5 }, (_, index) => PUBLIC_PAGE_SIZE + 4 - index);
    expect(seen).toEqual(expected);
  });
});

describe('the public list switch in the seed', () => {
  it('a seed network with publicList: true opens its list, the others stay closed', async () => {
    const seed = testSeed();
    seed.networks[1]!.publicList = true;
    const seeded = await startTestService({ seed });
    try {
      const response = await fetch(`${seeded.service.url}/panel/public/beta/`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('beta only');
      expect((await fetch(`${seeded.service.url}/panel/public/alpha/`)).status).toBe(404);
    } finally {
      await seeded.close();
    }
  });
});
