import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { type RunningService, type ServiceOptions, type ServiceSeed, startService } from '../src/service/index.js';
import { startPostgresServer, stopPostgresServer } from '../test/support/postgres-server.js';
import { type BenchResult, summarize } from './result.js';

const ROUNDS = 100;
const API_KEY = 'bench-service-idempotency-key';
const TARGET = '069a79f4-44e9-4726-a5be-fca90e38aaf5';

const SEED: ServiceSeed = {
  networks: [
    {
      name: 'bench',
      servers: [{ name: 'bench', apiKey: API_KEY }],
      players: [{ uuid: TARGET, name: 'Notch' }],
    },
  ],
};

/** Random-looking ids that differ between instances, as real instances' ids do. */
function idsOf(prefix: string): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `${prefix}${next}`;
  };
}

function create(service: RunningService, key: string, round: number): Promise<Response> {
  return fetch(`${service.url}/v1/minecraft/punishments/dynamic`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, 'idempotency-key': `"${key}"` },
    body: JSON.stringify({ targetUuid: TARGET, typeOrdinal: 2, issuerName: 'bench', reason: `round ${round}` }),
  });
}

/**
 * `ROUNDS` rounds of the same creation sent twice at the same moment with one key (to `first` and
 * `second`, which may be one instance). Duplicates: punishments stored beyond one per round.
 */
async function rounds(label: string, first: RunningService, second: RunningService): Promise<BenchResult[]> {
  const pairMs: number[] = [];
  let notOk = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const answers = await Promise.all([
      create(first, `${label}-${round}`, round),
      create(second, `${label}-${round}`, round),
    ]);
    pairMs.push(performance.now() - started);
    for (const answer of answers) {
      await answer.arrayBuffer();
      if (answer.status !== 200) notOk += 1;
    }
  }
  const networkId = (await first.context.stores.networks.findNetwork('bench'))!;
  const stored = await first.context.stores.playerLookup.punishmentsOf(networkId, TARGET, ROUNDS * 4);
  const duplicates = stored.length - ROUNDS;
  return [
    {
      name: `concurrent duplicates of one Idempotency-Key, ${label}: punishments created twice in ${ROUNDS} rounds`,
      unit: 'punishments',
      value: duplicates,
      target: '0',
      notes: `${stored.length} stored for ${ROUNDS} keys; ${notOk} answers other than 200`,
    },
    { name: `concurrent duplicates, ${label}: both answers of a pair`, unit: 'ms', ...summarize(pairMs) },
  ];
}

async function onSqlite(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-idempotency-'));
  const service = await startService({ port: 0, dbPath: join(dir, 'service.db'), seed: SEED, ids: idsOf('s') });
  try {
    return await rounds('SQLite', service, service);
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function onPostgres(adminUrl: string, database: string, instances: 1 | 2): Promise<BenchResult[]> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const options = (prefix: string): ServiceOptions => ({
    port: 0,
    databaseUrl: url.toString(),
    seed: SEED,
    ids: idsOf(prefix),
  });
  const first = await startService(options('a'));
  const second = instances === 1 ? first : await startService(options('b'));
  try {
    return await rounds(instances === 1 ? 'PostgreSQL, one instance' : 'PostgreSQL, two instances', first, second);
  } finally {
    if (second !== first) await second.close();
    await first.close();
  }
}

/** Issue 31: exactly-once on every store, counted over 100 rounds of concurrent duplicates. */
export async function run(): Promise<BenchResult[]> {
  const results = await onSqlite();
  const server = await startPostgresServer();
  try {
    results.push(...(await onPostgres(server.adminUrl, 'bench_idempotency_one', 1)));
    results.push(...(await onPostgres(server.adminUrl, 'bench_idempotency_two', 2)));
  } finally {
    await stopPostgresServer(server);
  }
  return results;
}
