import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type ServiceSeed, startService } from '../src/service/index.js';
import { openSqliteStorage } from '../src/service/store/open-storage.js';
import { WebhookQueue } from '../src/service/webhooks/webhook-queue.js';
import { type BenchResult, summarize } from './result.js';

const LATENCY_SAMPLES = 500;
const BACKLOG_PER_ENDPOINT = 2000;
const API_KEY = 'bench-service-webhooks-api-key';
const PLAYER = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

const WAIT_LIMIT_MS = 120_000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${WAIT_LIMIT_MS} ms`)), WAIT_LIMIT_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** A healthy receiver: answers 204 at once and tells the bench when each delivery arrived. */
async function startReceiver(onDelivery: (body: { data: { reason: string } }) => void): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(204).end();
      onDelivery(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function seed(port: number, endpoints: number): ServiceSeed {
  return {
    networks: [
      {
        name: 'bench',
        servers: [{ name: 'bench', apiKey: API_KEY }],
        players: [{ uuid: PLAYER, name: 'Notch' }],
        webhooks: Array.from({ length: endpoints }, (_, n) => ({
          name: `hook-${n}`,
          url: `http://127.0.0.1:${port}/hook/${n}`,
          events: ['punishment.created' as const],
          format: 'json' as const,
        })),
      },
    ],
  };
}

/** From sending the create request to the receiver holding the delivery, one event at a time. */
async function latency(dir: string): Promise<number[]> {
  let arrived: ((reason: string) => void) | undefined;
  const receiver = await startReceiver((body) => arrived?.(body.data.reason));
  const port = (receiver.address() as AddressInfo).port;
  const service = await startService({
    port: 0,
    dbPath: join(dir, 'latency.db'),
    seed: seed(port, 1),
    // The receiver listens on 127.0.0.1, an internal address.
    webhooksAllowPrivate: true,
    rateLimitPerMinute: 1_000_000,
    writeRateLimitPerMinute: 1_000_000,
  });
  const samples: number[] = [];
  try {
    for (let n = 0; n < LATENCY_SAMPLES; n += 1) {
      const reason = `event ${n}`;
      const delivered = new Promise<void>((resolve) => {
        arrived = (seen) => seen === reason && resolve();
      });
      const startedAt = performance.now();
      const response = await fetch(`${service.url}/v1/minecraft/punishments/dynamic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify({ targetUuid: PLAYER, typeOrdinal: 6, issuerName: 'bench', reason, duration: 60_000 }),
      });
      if (!response.ok) throw new Error(`create answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
      await withTimeout(delivered, `delivery of ${reason}`);
      samples.push(performance.now() - startedAt);
    }
  } finally {
    await service.close();
    receiver.close();
  }
  return samples;
}

/** Deliveries a second draining a backlog already in the database when the service starts. */
async function drainRate(dir: string, endpoints: number): Promise<number> {
  let received = 0;
  const total = endpoints * BACKLOG_PER_ENDPOINT;
  let allArrived: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    allArrived = resolve;
  });
  const receiver = await startReceiver(() => {
    received += 1;
    if (received === total) allArrived();
  });
  const port = (receiver.address() as AddressInfo).port;
  const dbPath = join(dir, `drain-${endpoints}.db`);
  // A first start writes the schema and the endpoints; the backlog is then queued straight into the file.
  await (await startService({ port: 0, dbPath, seed: seed(port, endpoints), webhooksAllowPrivate: true })).close();
  const storage = await openSqliteStorage(dbPath);
  const queue = new WebhookQueue();
  const networkId = (await storage.stores.networks.findNetwork('bench'))!;
  await storage.transaction(async (stores) => {
    for (let n = 0; n < BACKLOG_PER_ENDPOINT; n += 1) {
      const event = { name: 'punishment.created' as const, occurredAtMs: Date.now(), values: { reason: `b${n}` } };
      await queue.record(networkId, [event], stores);
    }
  });
  await storage.close();

  const startedAt = performance.now();
  const service = await startService({ port: 0, dbPath, seed: seed(port, endpoints), webhooksAllowPrivate: true });
  try {
    await withTimeout(done, `${total} deliveries`);
    return total / ((performance.now() - startedAt) / 1000);
  } finally {
    await service.close();
    receiver.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-webhooks-'));
  try {
    const { p50, p99 } = summarize(await latency(dir));
    const oneEndpoint = await drainRate(dir, 1);
    const eightEndpoints = await drainRate(dir, 8);
    const where = 'service, file database and receiver in one process on loopback';
    return [
      {
        name: 'webhook event -> delivered',
        unit: 'ms',
        p50,
        p99,
        notes: `${LATENCY_SAMPLES} punishments created one at a time; create request sent -> receiver has it; ${where}`,
      },
      {
        name: 'webhook deliveries/s, 1 endpoint',
        unit: 'deliveries/s',
        value: oneEndpoint,
        notes: `${BACKLOG_PER_ENDPOINT} queued before start, sent in order one at a time; includes start`,
      },
      {
        name: 'webhook deliveries/s, 8 endpoints',
        unit: 'deliveries/s',
        value: eightEndpoints,
        notes: `8 x ${BACKLOG_PER_ENDPOINT} queued before start, endpoints in parallel; includes start`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
