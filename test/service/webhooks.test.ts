import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceOptions } from '../../src/service/index.js';
import { JEB, NOTCH } from './helpers/fixture.js';
import { type ReceivedRequest, seededFaults, WebhookReceiver } from './helpers/webhook-receiver.js';
import {
  punishNotch,
  recordingLogger,
  startWebhookService,
  type WebhookTestService,
  within,
} from './helpers/webhook-service.js';

const workDir = mkdtempSync(join(tmpdir(), 'bailiff-webhooks-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// The token part of a Discord webhook URL: the secret that must never be logged or shown.
const SECRET_A = 'tokenAAAA-secret-0123456789';
const SECRET_B = 'tokenBBBB-secret-9876543210';
const PATH_A = `/api/webhooks/111/${SECRET_A}`;
const PATH_B = `/api/webhooks/222/${SECRET_B}`;
const WAIT_MS = 60_000;

let receiver: WebhookReceiver | undefined;
const services: WebhookTestService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
  await receiver?.close();
  receiver = undefined;
});

async function start(
  webhooks: Record<string, unknown>[],
  lines: string[],
  run: string,
  dbPath?: string,
  options: ServiceOptions = {},
) {
  const service = await startWebhookService(webhooks, lines, run, { ...(dbPath ? { dbPath } : {}), ...options });
  services.push(service);
  return service;
}

async function report(service: WebhookTestService, subject: string) {
  const response = await service.call('POST', '/tickets', {
    creatorUuid: JEB,
    creatorName: 'jeb_',
    type: 'chat',
    subject,
    description: 'spam',
    reportedPlayerUuid: NOTCH,
    reportedPlayerName: 'Notch',
  });
  expect(response.status).toBe(200);
}

/** What a generic JSON delivery is about: the punishment's reason or the ticket's subject. */
function labelOf(request: ReceivedRequest): string {
  const body = request.body as { event: string; data: { reason: string } };
  return `${body.event}:${body.data.reason}`;
}

function requestsTo(path: string): ReceivedRequest[] {
  return receiver!.requests.filter((request) => request.path === path);
}

/** Labels in arrival order with repeats of the same delivery collapsed: the order the receiver saw. */
function arrivalOrder(path: string): string[] {
  const order: string[] = [];
  let lastId: string | undefined;
  for (const request of requestsTo(path)) {
    if (request.deliveryId !== lastId) order.push(labelOf(request));
    lastId = request.deliveryId;
  }
  return order;
}

function expectNoRequestInsideAskedWindows(): void {
  for (const window of receiver!.windows) {
    const inside = requestsTo(window.path).filter(
      (request) => request.arrivedAtMs > window.fromMs && request.arrivedAtMs < window.untilMs,
    );
    expect(inside, `requests inside the 429 window ${JSON.stringify(window)}`).toEqual([]);
  }
}

function expectSameDeliveryIdOnlyAfterAFailure(path: string): void {
  const byId = new Map<string, ReceivedRequest[]>();
  for (const request of requestsTo(path)) {
    const list = byId.get(request.deliveryId ?? '') ?? [];
    list.push(request);
    byId.set(request.deliveryId ?? '', list);
  }
  for (const [deliveryId, tries] of byId) {
    // Accepted once, by the last try; every earlier try was refused or its answer lost; same bytes each time.
    expect(
      tries.map((request) => request.answer === 'ok'),
      deliveryId,
    ).toEqual(tries.map((_, i) => i === tries.length - 1));
    for (const request of tries) expect(request.body).toEqual(tries[0]!.body);
    expect((tries[0]!.body as { deliveryId: string }).deliveryId).toBe(deliveryId);
  }
}

interface ShownWebhook {
  id: number;
  name: string;
  url: string;
  enabled: boolean;
  pending: number;
  dead: number;
}

interface ShownLogEntry {
  deliveryId: string;
  event: string;
  outcome: string;
  statusCode: number | null;
  excerpt: string;
}

async function webhooksOf(service: WebhookTestService): Promise<ShownWebhook[]> {
  const body = (await (await service.admin('GET', '/networks/alpha/webhooks')).json()) as { webhooks: ShownWebhook[] };
  return body.webhooks;
}

async function logOf(service: WebhookTestService, id: number, limit = 500): Promise<ShownLogEntry[]> {
  const response = await service.admin('GET', `/networks/alpha/webhooks/${id}/log?limit=${limit}`);
  return ((await response.json()) as { entries: ShownLogEntry[] }).entries;
}

const jsonEndpoint = (name: string, path: string, events: string[], extra: Record<string, unknown> = {}) => ({
  name,
  url: receiver!.url(path),
  events,
  format: 'json',
  ...extra,
});

describe('webhooks', () => {
  it('delivers every event in order per endpoint through 429s, 500s and dropped connections', async () => {
    receiver = await WebhookReceiver.start(seededFaults(42));
    const lines: string[] = [];
    const service = await start(
      [
        jsonEndpoint('moderation', PATH_A, ['punishment.created', 'report.created']),
        jsonEndpoint('tickets', PATH_B, ['punishment.created', 'ticket.created']),
      ],
      lines,
      'a',
    );
    const expectedA: string[] = [];
    const expectedB: string[] = [];
    for (let i = 1; i <= 12; i += 1) {
      await punishNotch(service, `p${i}`);
      expectedA.push(`punishment.created:p${i}`);
      expectedB.push(`punishment.created:p${i}`);
      if (i % 3 === 0) {
        await report(service, `r${i}`);
        expectedB.push(`ticket.created:r${i}`);
        expectedA.push(`report.created:r${i}`);
      }
    }
    await receiver.until(
      () =>
        receiver!.accepted(PATH_A).length === expectedA.length &&
        receiver!.accepted(PATH_B).length === expectedB.length,
      WAIT_MS,
      'every delivery accepted',
    );

    expect(arrivalOrder(PATH_A)).toEqual(expectedA);
    expect(arrivalOrder(PATH_B)).toEqual(expectedB);
    expect(receiver.accepted(PATH_A).map(labelOf)).toEqual(expectedA);
    expectSameDeliveryIdOnlyAfterAFailure(PATH_A);
    expectSameDeliveryIdOnlyAfterAFailure(PATH_B);
    expectNoRequestInsideAskedWindows();
    // The seeded receiver did refuse, rate-limit and drop: the run exercised every path.
    const answers = new Set(receiver.requests.map((request) => request.answer));
    expect([...answers].sort()).toEqual(['drop', 'ok', 'rate-limit', 'server-error']);

    // The receiver counts a delivery when it answers; the service records it once the answer reaches it.
    const list = await vi.waitFor(
      async () => {
        const shown = await webhooksOf(service);
        expect(shown.map((webhook) => webhook.pending)).toEqual([0, 0]);
        return shown;
      },
      { timeout: WAIT_MS, interval: 50 },
    );
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ name: 'moderation', url: `${receiver.url('')}/…`, pending: 0, dead: 0 });
    const log = await logOf(service, list[0]!.id);
    expect(new Set(log.map((entry) => entry.outcome))).toEqual(new Set(['delivered', 'retrying']));
    expect(log.some((entry) => entry.statusCode === 429 && entry.excerpt.includes('rate limited'))).toBe(true);
    expect(log.some((entry) => entry.statusCode === null && entry.excerpt.startsWith('network error'))).toBe(true);

    const everything = lines.join('\n') + JSON.stringify(list) + JSON.stringify(log);
    expect(everything).not.toContain(SECRET_A);
    expect(everything).not.toContain(SECRET_B);
    expect(lines.some((line) => line.includes('will be retried'))).toBe(true);
  });

  it('loses nothing across a restart, and resends an unanswered delivery with the same id', async () => {
    const dbPath = join(workDir, 'restart.db');
    receiver = await WebhookReceiver.start(seededFaults(7));
    const lines: string[] = [];
    const webhooks = [jsonEndpoint('moderation', PATH_A, ['punishment.created'])];
    const first = await start(webhooks, lines, 'first', dbPath);
    const expected = Array.from({ length: 20 }, (_, i) => `punishment.created:p${i + 1}`);
    for (let i = 1; i <= 10; i += 1) await punishNotch(first, `p${i}`);
    await receiver.until(() => receiver!.accepted(PATH_A).length >= 3, WAIT_MS, 'three deliveries accepted');

    // The next request gets no answer at all; the service stops while waiting for it.
    const hanging = () => receiver!.requests.find((request) => request.answer === 'hang');
    receiver.setAnswers(() => ({ kind: 'hang' }));
    await receiver.until(() => hanging() !== undefined, WAIT_MS, 'a hanging request');
    const hung = hanging()!;
    await first.close();
    services.splice(services.indexOf(first), 1);
    const acceptedBeforeRestart = receiver.accepted(PATH_A).length;
    expect(acceptedBeforeRestart).toBeLessThan(10);

    receiver.setAnswers(seededFaults(8));
    const second = await start(webhooks, lines, 'second', dbPath);
    for (let i = 11; i <= 20; i += 1) await punishNotch(second, `p${i}`);
    await receiver.until(() => receiver!.accepted(PATH_A).length === expected.length, WAIT_MS, 'all twenty accepted');

    expect(arrivalOrder(PATH_A)).toEqual(expected);
    expect(receiver.accepted(PATH_A).map(labelOf)).toEqual(expected);
    const hungAgain = receiver.accepted(PATH_A).find((request) => request.deliveryId === hung.deliveryId);
    expect(hungAgain?.body).toEqual(hung.body);
    expect(new Set(receiver.accepted(PATH_A).map((request) => request.deliveryId)).size).toBe(expected.length);
    expectNoRequestInsideAskedWindows();
    expect(lines.join('\n')).not.toContain(SECRET_A);
  });

  it('makes a delivery dead after maxAttempts tries, logs each, and goes on with the next event', async () => {
    receiver = await WebhookReceiver.start(() => ({ kind: 'server-error' }));
    const lines: string[] = [];
    let sawDead: () => void = () => {};
    const dead = new Promise<void>((resolve) => {
      sawDead = resolve;
    });
    const logger = recordingLogger(lines, (line) => {
      if (line.includes('webhook delivery is dead')) sawDead();
    });
    const service = await start(
      [jsonEndpoint('flaky', PATH_A, ['punishment.created'], { maxAttempts: 3 })],
      lines,
      'd',
      undefined,
      { logger },
    );
    await punishNotch(service, 'doomed');
    const { id } = (await webhooksOf(service))[0]!;
    await within(dead, WAIT_MS, 'the delivery to be dead');
    expect(requestsTo(PATH_A)).toHaveLength(3);
    const entries = await logOf(service, id);
    expect(entries.map((entry) => entry.outcome)).toEqual(['dead', 'retrying', 'retrying']);
    expect(entries[0]).toMatchObject({ statusCode: 500, excerpt: 'internal error' });
    expect((await webhooksOf(service))[0]).toMatchObject({ pending: 0, dead: 1 });

    receiver.setAnswers(() => ({ kind: 'ok' }));
    await punishNotch(service, 'next');
    await receiver.until(() => receiver!.accepted(PATH_A).length === 1, WAIT_MS, 'the next event');
    expect(receiver.accepted(PATH_A).map(labelOf)).toEqual(['punishment.created:next']);
    expect(requestsTo(PATH_A)).toHaveLength(4);
  });

  it('sends Discord embeds from templates, and a test-send answers what the receiver said', async () => {
    receiver = await WebhookReceiver.start();
    const lines: string[] = [];
    const service = await start(
      [
        {
          name: 'discord',
          url: receiver.url(PATH_A),
          events: ['punishment.created', 'report.created'],
          templates: {
            'punishment.created': { title: 'Muted {player}', description: '{actor}: {reason} until {expires}' },
          },
        },
      ],
      lines,
      'e',
    );
    await punishNotch(service, 'caps @everyone');
    await report(service, 'griefing');
    await receiver.until(() => receiver!.accepted(PATH_A).length === 2, WAIT_MS, 'two embeds');
    const [punished, reported] = receiver
      .accepted(PATH_A)
      .map((request) => request.body as { embeds: Record<string, unknown>[]; allowed_mentions: unknown });
    expect(punished!.embeds[0]).toMatchObject({
      title: 'Muted Notch',
      description: expect.stringMatching(/^Mod: caps @everyone until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(punished!.allowed_mentions).toEqual({ parse: [] });
    expect(reported!.embeds[0]).toMatchObject({ title: 'Report against Notch', description: 'jeb_: griefing\nspam' });

    const { id } = (await webhooksOf(service))[0]!;
    const sent = await service.admin('POST', `/networks/alpha/webhooks/${id}/test`);
    const test = (await sent.json()) as { success: boolean; statusCode: number; deliveryId: string };
    expect(test).toMatchObject({ success: true, statusCode: 204 });
    expect(await logOf(service, id, 1)).toEqual([
      expect.objectContaining({ event: 'test', outcome: 'delivered', deliveryId: test.deliveryId }),
    ]);
  });

  it('announces the end of a started temporary punishment once, and nothing for the others', async () => {
    receiver = await WebhookReceiver.start();
    const service = await start([jsonEndpoint('ends', PATH_A, ['punishment.expired'])], [], 'x', undefined, {
      webhookExpiryCheckMs: 20,
    });
    async function punishment(reason: string, duration: number): Promise<string> {
      const created = await service.call('POST', '/punishments/dynamic', {
        targetUuid: NOTCH,
        typeOrdinal: 6,
        issuerName: 'Mod',
        reason,
        duration,
      });
      return ((await created.json()) as { punishmentId: string }).punishmentId;
    }
    async function enforced(punishmentId: string, agoMs: number): Promise<string> {
      const executedAt = new Date(Date.now() - agoMs).toISOString();
      const body = { punishmentId, playerUuid: NOTCH, executedAt, success: true };
      expect((await service.call('POST', '/punishments/acknowledge', body)).status).toBe(200);
      return punishmentId;
    }
    await enforced(await punishment('permanent', -1), 5000);
    await punishment('never enforced', 1000);
    await enforced(await punishment('still running', 3_600_000), 1000);
    // Pardoned before it is enforced, so no look for ended punishments can see it active and ended.
    const pardoned = await punishment('pardoned', 1000);
    const pardon = await service.call('POST', `/punishments/${pardoned}/pardon`, {
      issuerName: 'Mod',
      reason: 'sorry',
    });
    expect(pardon.status).toBe(200);
    await enforced(pardoned, 5000);
    const first = await enforced(await punishment('first', 1000), 5000);
    await receiver.until(() => receiver!.accepted(PATH_A).length === 1, WAIT_MS, 'the first end');
    const second = await enforced(await punishment('second', 1000), 5000);
    await receiver.until(() => receiver!.accepted(PATH_A).length === 2, WAIT_MS, 'the second end');
    const data = receiver.accepted(PATH_A).map((request) => (request.body as { data: { id: string } }).data);
    expect(data).toEqual([
      expect.objectContaining({ id: first, actor: 'Bailiff', reason: 'first' }),
      expect.objectContaining({ id: second, actor: 'Bailiff', reason: 'second' }),
    ]);
  });

  it('configures endpoints through the admin API, naming what is wrong', async () => {
    receiver = await WebhookReceiver.start();
    const service = await start([], [], 'f');
    const create = (body: unknown) => service.admin('POST', '/networks/alpha/webhooks', body);
    const problems: [Record<string, unknown>, string][] = [
      [{ url: 'ftp://example.net/hook' }, 'url: must be an http(s) URL'],
      [{ events: [] }, 'events: must name at least one event'],
      [{ events: ['player.joined'] }, 'events[0]: must be one of punishment.created'],
      [
        { templates: { 'report.created': { title: 'Hi {nope}' } } },
        'templates.report.created.title: {nope} is not a placeholder',
      ],
      [{ maxAttempts: 0 }, 'maxAttempts: must be at least 1'],
    ];
    for (const [change, message] of problems) {
      const response = await create({ name: 'x', url: receiver.url(PATH_A), events: ['report.created'], ...change });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(message);
    }
    const response = await create({ name: 'ops', url: receiver.url(PATH_A), events: ['appeal.created'] });
    const created = (await response.json()) as { webhook: ShownWebhook & { format: string; maxAttempts: number } };
    expect(created.webhook).toMatchObject({ name: 'ops', format: 'discord', maxAttempts: 8, enabled: true });
    expect(JSON.stringify(created)).not.toContain(SECRET_A);
    expect((await create({ name: 'ops', url: receiver.url(PATH_B), events: ['appeal.created'] })).status).toBe(409);

    const patched = await service.admin('PATCH', `/networks/alpha/webhooks/${created.webhook.id}`, { enabled: false });
    expect(((await patched.json()) as { webhook: ShownWebhook }).webhook.enabled).toBe(false);
    await service.call('POST', '/tickets', {
      creatorUuid: JEB,
      creatorName: 'jeb_',
      type: 'appeal',
      subject: 'please',
      description: 'sorry',
    });
    expect((await webhooksOf(service))[0]!.pending).toBe(0);
    expect((await service.admin('DELETE', `/networks/alpha/webhooks/${created.webhook.id}`)).status).toBe(200);
    expect(await webhooksOf(service)).toEqual([]);
    expect((await service.admin('GET', '/networks/beta/webhooks/1/log')).status).toBe(404);
  });
});
