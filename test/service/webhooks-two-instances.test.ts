import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { type ReceivedRequest, seededFaults, WebhookReceiver } from './helpers/webhook-receiver.js';
import { punishNotch, startWebhookService, type WebhookTestService } from './helpers/webhook-service.js';

const PATH = '/hooks/moderation';
const WAIT_MS = 60_000;

let database: TestDatabase;
let receiver: WebhookReceiver;
const services: WebhookTestService[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await WebhookReceiver.start(seededFaults(11));
});

afterAll(async () => {
  for (const service of services) await service.close();
  await receiver?.close();
  await database?.drop();
});

const reasonOf = (request: ReceivedRequest) => (request.body as { data: { reason: string } }).data.reason;

describe('webhooks of two instances on one PostgreSQL', () => {
  it('delivers every event once and in order, whichever instance queued it, through refusals and retries', {
    timeout: 90_000,
  }, async () => {
    const webhooks = [{ name: 'moderation', url: receiver.url(PATH), events: ['punishment.created'], format: 'json' }];
    const lines: string[] = [];
    for (const run of ['a', 'b']) {
      services.push(await startWebhookService(webhooks, lines, run, { databaseUrl: database.url }));
    }
    const expected: string[] = [];
    for (let i = 1; i <= 10; i += 1) {
      await punishNotch(services[i % 2]!, `p${i}`);
      expected.push(`p${i}`);
    }
    await receiver.until(() => receiver.accepted(PATH).length >= expected.length, WAIT_MS, 'every delivery accepted');

    // What the receiver saw and the services logged, to read when an expectation below fails.
    const seen = () =>
      `${receiver.requests.map((request) => `${reasonOf(request)}/${request.deliveryId}/${request.answer}`).join(' ')}\n${lines.join('\n')}`;
    // Each delivery accepted exactly once; tries of one delivery follow each other (never two at once).
    expect(receiver.accepted(PATH).map(reasonOf), seen()).toEqual(expected);
    const ids = receiver.accepted(PATH).map((request) => request.deliveryId);
    expect(new Set(ids).size, seen()).toBe(expected.length);
    const firstTries: string[] = [];
    for (const request of receiver.requests) {
      if (firstTries.at(-1) !== request.deliveryId) firstTries.push(request.deliveryId!);
    }
    expect(firstTries, seen()).toEqual(ids);
    expect(new Set(receiver.requests.map((request) => request.answer)).size).toBeGreaterThan(1);
    expect(
      lines.filter((line) => line.includes('"level":"error"')),
      seen(),
    ).toEqual([]);
  });
});
