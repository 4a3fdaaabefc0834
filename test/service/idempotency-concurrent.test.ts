import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { type Instances, instanceSetups } from './helpers/concurrent-instances.js';
import { KEY_A1, NOTCH, type TestService } from './helpers/fixture.js';
import { PanelClient } from './helpers/panel-client.js';

/** Rounds of concurrent duplicates of a punishment creation (the bar), and of each other keyed write. */
const CREATION_ROUNDS = 100;
const OTHER_ROUNDS = 25;
const PASSWORD = 'correct horse battery';

/** The same request, with the same key, sent to both at the same moment. */
async function duplicates(
  instances: Instances,
  method: string,
  path: string,
  key: string,
  body: unknown,
): Promise<Array<{ status: number; replayed: boolean; body: Record<string, unknown> }>> {
  const send = (to: TestService) =>
    fetch(to.base + path, {
      method,
      headers: { 'content-type': 'application/json', 'x-api-key': KEY_A1, 'idempotency-key': `"${key}"` },
      body: JSON.stringify(body),
    });
  const answers = await Promise.all([send(instances.first), send(instances.second)]);
  return Promise.all(
    answers.map(async (answer) => ({
      status: answer.status,
      replayed: answer.headers.get('idempotent-replayed') === 'true',
      body: (await answer.json()) as Record<string, unknown>,
    })),
  );
}

/** Each pair: both 200, the same answer, exactly one of them a replay. */
function expectOneCreation(pair: Awaited<ReturnType<typeof duplicates>>, field: string): string {
  expect(pair.map((answer) => answer.status)).toEqual([200, 200]);
  expect(pair[0]!.body[field]).toBe(pair[1]!.body[field]);
  expect(pair.filter((answer) => answer.replayed)).toHaveLength(1);
  return pair[0]!.body[field] as string;
}

const SETUPS = instanceSetups('bailiff-idempotency-');

/**
 * Issue 31: the same `Idempotency-Key` sent twice at the same moment (to one instance, or to two on
 * one PostgreSQL, as an outbox retry behind a load balancer does) creates once; the second answer
 * repeats the first with `Idempotent-Replayed: true`.
 */
describe.each(SETUPS)('concurrent duplicates on $name', { timeout: 120_000 }, (setup) => {
  let instances: Instances;

  beforeAll(async () => {
    instances = await setup.start();
  });
  afterAll(async () => {
    await instances?.close();
  });

  it(`creates one punishment per key in ${CREATION_ROUNDS} rounds`, async () => {
    const ids: string[] = [];
    for (let round = 0; round < CREATION_ROUNDS; round += 1) {
      const body = { targetUuid: NOTCH, typeOrdinal: 2, issuerName: 'Mod', reason: `dynamic round ${round}` };
      const pair = await duplicates(instances, 'POST', '/punishments/dynamic', `dynamic-${round}`, body);
      ids.push(expectOneCreation(pair, 'punishmentId'));
    }
    const stored = (await instances.stores.playerLookup.punishmentsOf(instances.networkId, NOTCH, 10_000)).filter(
      (row) => row.reason.startsWith('dynamic round '),
    );
    expect(stored).toHaveLength(CREATION_ROUNDS);
    expect(new Set(stored.map((row) => row.id))).toEqual(new Set(ids));
  });

  it(`opens one ticket and adds one reply per key in ${OTHER_ROUNDS} rounds each`, async () => {
    for (let round = 0; round < OTHER_ROUNDS; round += 1) {
      const body = {
        type: 'support',
        subject: `ticket round ${round}`,
        description: 'help',
        creatorUuid: NOTCH,
        creatorName: 'Notch',
      };
      expectOneCreation(await duplicates(instances, 'POST', '/tickets', `ticket-${round}`, body), 'ticketId');
    }
    const tickets = (await instances.stores.tickets.byPlayer(instances.networkId, NOTCH, 1_000)).filter((ticket) =>
      ticket.subject.startsWith('ticket round '),
    );
    expect(tickets).toHaveLength(OTHER_ROUNDS);

    const ticketId = tickets[0]!.id;
    for (let round = 0; round < OTHER_ROUNDS; round += 1) {
      const body = { playerUuid: NOTCH, playerName: 'Notch', message: `reply round ${round}` };
      const pair = await duplicates(instances, 'POST', `/tickets/${ticketId}/replies`, `reply-${round}`, body);
      expectOneCreation(pair, 'replyId');
    }
    const ticket = await instances.stores.tickets.find(instances.networkId, ticketId);
    expect(ticket!.replies.filter((reply) => reply.message.startsWith('reply round '))).toHaveLength(OTHER_ROUNDS);
  });

  it(`adds evidence once and pardons once per key in ${OTHER_ROUNDS} rounds each`, async () => {
    const created = await instances.first.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 14,
      issuerName: 'Mod',
      reason: 'evidence target',
    });
    const { punishmentId } = (await created.json()) as { punishmentId: string };
    for (let round = 0; round < OTHER_ROUNDS; round += 1) {
      const body = { issuerName: 'Mod', evidenceUrl: `https://example.org/evidence/${round}` };
      const pair = await duplicates(
        instances,
        'POST',
        `/punishments/${punishmentId}/evidence`,
        `evidence-${round}`,
        body,
      );
      expectOneCreation(pair, 'message');
    }
    expect(await instances.stores.enforcement.evidence(instances.networkId, punishmentId)).toHaveLength(OTHER_ROUNDS);

    for (let round = 0; round < OTHER_ROUNDS; round += 1) {
      const ban = await instances.first.call('POST', '/punishments/dynamic', {
        targetUuid: NOTCH,
        typeOrdinal: 2,
        issuerName: 'Mod',
        reason: `pardon round ${round}`,
      });
      const { punishmentId: banId } = (await ban.json()) as { punishmentId: string };
      const body = { issuerName: 'Mod', reason: 'appeal accepted' };
      const pair = await duplicates(instances, 'POST', `/punishments/${banId}/pardon`, `pardon-${round}`, body);
      // Both say what the first did; the second did nothing of its own.
      expect(expectOneCreation(pair, 'message')).toBe(`punishment ${banId} pardoned`);
      expect(await instances.stores.pardons.find(instances.networkId, banId)).toMatchObject({ issuerName: 'Mod' });
    }
    const pardonAudit = (await instances.stores.auditLog.newest(instances.networkId, 1_000)).filter(
      (entry) => entry.action === 'punishment.pardon',
    );
    expect(pardonAudit).toHaveLength(OTHER_ROUNDS);
  });

  it(`issues one punishment per confirm token of the panel in ${OTHER_ROUNDS} rounds`, async () => {
    await instances.stores.panelAccounts.create({
      networkId: instances.networkId,
      username: 'mod',
      passwordHash: await hashPassword(PASSWORD),
      role: 'moderator',
      nowMs: instances.first.clock.now(),
    });
    const onFirst = new PanelClient(instances.first.service.url);
    expect((await onFirst.login('mod', PASSWORD)).status).toBe(303);
    const onSecond = onFirst.sameSessionAt(instances.second.service.url);
    const path = `/panel/players/${NOTCH}/punish`;
    for (let round = 0; round < OTHER_ROUNDS; round += 1) {
      const form = { typeOrdinal: '7', severity: 'lenient', reason: `panel round ${round}` };
      const preview = await onFirst.post(path, form);
      const once = /name="once" value="([^"]+)"/.exec(preview.html)![1]!;
      const confirm = { ...form, confirm: 'yes', once };
      const [first, second] = await Promise.all([onFirst.post(path, confirm), onSecond.post(path, confirm)]);
      expect([first.status, second.status]).toEqual([303, 303]);
      expect(first.location).toBe(second.location);
    }
    const issued = (await instances.stores.playerLookup.punishmentsOf(instances.networkId, NOTCH, 10_000)).filter(
      (row) => row.reason.startsWith('panel round '),
    );
    expect(issued).toHaveLength(OTHER_ROUNDS);
  });
});
