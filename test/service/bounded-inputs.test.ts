import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicketResponse, MAX_DURATION_MS, ticketResponse } from '../../src/contract/schemas.js';
import { parseSeed } from '../../src/service/index.js';
import { errorOf, JEB, NOTCH, testSeed } from './helpers/fixture.js';
import type { PanelClient } from './helpers/panel-client.js';
import { type PanelTestService, startPanelService } from './helpers/panel-service.js';

// Issue 32, item 10: bounded, never silently cut. A duration whose end no date can hold answers 400
// naming the field wherever a duration is taken; an over-long ticket reply is refused with the limit.

const TOO_LONG = 9_007_199_254_740_991;
const DURATION_REFUSAL = 'duration: must be at most 31536000000000 ms (1000 years); use -1 for permanent';

let t: PanelTestService;
let admin: PanelClient;
beforeAll(async () => {
  t = await startPanelService();
  await t.addAccount('admin', 'alpha', 'admin');
  admin = await t.loggedIn('admin');
});
afterAll(() => t.close());

const punishmentsOf = (uuid: string) => t.stores.playerLookup.punishmentsOf(t.networkId('alpha'), uuid, 100);

describe('durations past the date range', () => {
  it.each([
    ['create', '/punishments/create', { targetUuid: JEB, type_ordinal: 2 }],
    ['dynamic create', '/punishments/dynamic', { targetUuid: JEB, typeOrdinal: 2, issuerName: 'mod' }],
  ])('%s answers 400 naming duration, and stores nothing', async (_name, path, body) => {
    const before = await punishmentsOf(JEB);
    for (const duration of [TOO_LONG, 8.64e15, MAX_DURATION_MS + 1]) {
      const response = await t.call('POST', path, { ...body, duration });
      expect(response.status).toBe(400);
      expect((await errorOf(response)).message).toBe(DURATION_REFUSAL);
    }
    expect(await punishmentsOf(JEB)).toEqual(before);
  });

  it('the longest duration is stored and read back', async () => {
    const response = await t.call('POST', '/punishments/dynamic', {
      targetUuid: JEB,
      typeOrdinal: 2,
      issuerName: 'mod',
      reason: 'a thousand years',
      duration: MAX_DURATION_MS,
    });
    expect(response.status).toBe(200);
    const recent = await (await t.call('GET', '/punishments/recent')).json();
    expect(JSON.stringify(recent)).toContain(`"duration":${MAX_DURATION_MS}`);
    const page = await admin.get(`/panel/players/${JEB}`);
    expect(page.status).toBe(200);
  });

  it('the panel refuses a length past 1000 years next to the field, at the preview and at the confirm', async () => {
    const before = await punishmentsOf(NOTCH);
    const form = { typeOrdinal: '2', severity: 'regular', reason: 'forever and more', duration: '999999w 999999w' };
    for (const sent of [form, { ...form, confirm: 'yes' }]) {
      const answer = await admin.post(`/panel/players/${NOTCH}/punish`, sent);
      expect(answer.status).toBe(400);
      expect(answer.html).toContain('is longer than 1000 years, the longest length: use permanent');
    }
    expect(await punishmentsOf(NOTCH)).toEqual(before);
  });

  it('a seed with such a duration is refused, naming where', () => {
    const seed = testSeed();
    seed.networks[0]!.punishments = [{ id: 'seeded', targetUuid: NOTCH, typeOrdinal: 2, duration: TOO_LONG }];
    expect(() => parseSeed(seed)).toThrow(
      /networks\[0\]\.punishments\[0\]\.duration: must be at most 31536000000000 ms/,
    );
  });
});

describe('ticket replies over the limit', () => {
  it('a 10,000-character reply answers 400 naming the field and the limit, and nothing is added', async () => {
    const created = await t.call('POST', '/tickets', {
      creatorUuid: NOTCH,
      creatorName: 'Notch',
      type: 'support',
      subject: 'help',
      description: 'please',
    });
    const { ticketId } = createTicketResponse.parse(await created.json());
    const reply = (message: string) =>
      t.call('POST', `/tickets/${ticketId}/replies`, { playerUuid: NOTCH, playerName: 'Notch', message });
    const refused = await reply('x'.repeat(10_000));
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toBe('message: must be at most 4000 characters');
    expect((await reply('y'.repeat(4000))).status).toBe(200);
    const { ticket } = ticketResponse.parse(await (await t.call('GET', `/tickets/${ticketId}`)).json());
    expect(ticket.replies.map((entry) => entry.message.length)).toEqual([4000]);
  });
});
