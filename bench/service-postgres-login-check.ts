import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseIpAddress } from '../src/ip/ip-range.js';
import { openPostgresStorage } from '../src/service/store/open-storage.js';
import type { ServiceStoresPorts as PgStores } from '../src/service/store/ports/stores.js';
import { type FixtureFacts, NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import { stopPostgresServer } from '../test/support/postgres-server.js';
import { type BenchResult, summarize } from './result.js';
import { loginBody } from './support/login-bodies.js';
import { postLogin } from './support/login-post.js';
import { startPostgresNetworkFixture } from './support/postgres-network-fixture.js';
import { startInstance, stopInstance } from './support/service-instance.js';

const WARM_UP = 300;
/** Checks a service answers before it is timed: enough for V8 to have optimized the request path, as in a service that has run a while. */
const HTTP_WARM_UP = 5000;
const SAMPLES = 2000;
/** Accounts on one address the linked-account check reads at most (as the service's default). */
const LINKED_ACCOUNTS_LIMIT = 6;
/** High enough that the limiter never refuses: the bench measures the checks. */
const RATE_LIMIT_PER_MINUTE = 60_000_000;

/**
 * The statements of one login check: the login recorded (in a transaction), the addresses that
 * link accounts, then the player's active punishments, the IP bans of the address and the pending
 * notices. The route runs the same statements, the writes and the answer's reads in one transaction.
 */
async function loginCheck(
  storage: { stores: PgStores; transaction: <T>(work: (stores: PgStores) => Promise<T>) => Promise<T> },
  facts: FixtureFacts,
  n: number,
  nowMs: number,
): Promise<number> {
  const body = JSON.parse(loginBody(n, NETWORK_AT_SCALE, facts)) as {
    minecraftUuid: string;
    username: string;
    ipAddress: string;
  };
  const { networkId } = facts;
  const address = parseIpAddress(body.ipAddress)!;
  await storage.transaction(async (stores) => {
    await stores.players.recordLogin(networkId, {
      uuid: body.minecraftUuid,
      name: body.username,
      ip: address.text,
      server: 'game-1',
      at: nowMs,
    });
    await stores.playerIps.record(networkId, body.minecraftUuid, address.text, nowMs);
  });
  const { stores } = storage;
  for (const { ip } of await stores.playerIps.addressesOf(networkId, body.minecraftUuid, 0)) {
    await stores.playerIps.accountsOn(networkId, ip, 0, LINKED_ACCOUNTS_LIMIT);
  }
  const own = await stores.punishments.activeFor(networkId, body.minecraftUuid);
  const ofAddress = await stores.evasion.activeIpBansHolding(networkId, address);
  await stores.notifications.pendingFor(networkId, body.minecraftUuid);
  return own.length + ofAddress.length;
}

/** Sequential login checks over HTTP to `bailiff service --database-url` in its own process. */
async function overHttpOf(databaseUrl: string, facts: FixtureFacts) {
  const instance = await startInstance(databaseUrl, RATE_LIMIT_PER_MINUTE);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const url = new URL('/v1/minecraft/player/login', instance.url).href;
    const durations: number[] = [];
    let punishmentsSeen = 0;
    for (let n = 0; n < HTTP_WARM_UP + SAMPLES; n += 1) {
      const body = loginBody(n, NETWORK_AT_SCALE, facts);
      const began = performance.now();
      const { status, text } = await postLogin(agent, url, body, true);
      const tookMs = performance.now() - began;
      if (status !== 200) throw new Error(`login check answered ${status}: ${text}`);
      if (n < HTTP_WARM_UP) continue;
      durations.push(tookMs);
      punishmentsSeen += (JSON.parse(text!) as { activePunishments?: unknown[] }).activePunishments?.length ?? 0;
    }
    return { latency: summarize(durations), punishmentsSeen };
  } finally {
    agent.destroy();
    await stopInstance(instance);
  }
}

/**
 * The login check on PostgreSQL with 1,000,000 punishments stored and 100,000 active in one
 * network of 20,000 players (the SQLite network fixture, copied in): sequential checks over HTTP to
 * the service, and its statements alone through the PostgreSQL stores on a pool, over TCP to a
 * server on 127.0.0.1.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-pg-login-'));
  try {
    const nowMs = Date.now();
    const fixture = await startPostgresNetworkFixture(NETWORK_AT_SCALE, dir, nowMs);
    try {
      const storage = await openPostgresStorage(fixture.url);
      try {
        const durations: number[] = [];
        let punishmentsSeen = 0;
        for (let n = 0; n < WARM_UP + SAMPLES; n += 1) {
          const began = performance.now();
          const found = await loginCheck(storage, fixture.facts, n, nowMs);
          if (n >= WARM_UP) {
            durations.push(performance.now() - began);
            punishmentsSeen += found;
          }
        }
        const overHttp = await overHttpOf(fixture.url, fixture.facts);
        const machine = `load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`;
        const shape = `${NETWORK_AT_SCALE.stored.toLocaleString('en')} stored, ${NETWORK_AT_SCALE.active.toLocaleString('en')} active, ${NETWORK_AT_SCALE.players.toLocaleString('en')} players`;
        const loaded =
          fixture.loadedSeconds === undefined
            ? 'cached PostgreSQL fixture'
            : `fixture copied in from SQLite in ${fixture.loadedSeconds.toFixed(0)} s (${Object.entries(
                fixture.rows ?? {},
              )
                .map(([table, count]) => `${table} ${count.toLocaleString('en')}`)
                .join(', ')})`;
        return [
          {
            name: 'login check (PostgreSQL, 1M stored, 100k active)',
            unit: 'ms',
            ...overHttp.latency,
            target: 'p99 <= 10 ms',
            notes: `${shape}; \`bailiff service --database-url\` in its own process, ${SAMPLES} sequential calls of POST /player/login on one kept-alive connection (node:http client) on 127.0.0.1; ${overHttp.punishmentsSeen} active punishments answered; ${machine}`,
          },
          {
            name: 'login check statements (PostgreSQL, 1M stored, 100k active)',
            unit: 'ms',
            ...summarize(durations),
            notes: `${shape}; ${fixture.server.version} on 127.0.0.1 (fsync off); ${SAMPLES} sequential checks through the stores: login recorded in a transaction, linked-account addresses, own active punishments, IP bans of the address (1 in 10 banned), pending notices; ${punishmentsSeen} active punishments found; ${loaded}; ${machine}`,
          },
        ];
      } finally {
        await storage.close();
      }
    } finally {
      await stopPostgresServer(fixture.server);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
