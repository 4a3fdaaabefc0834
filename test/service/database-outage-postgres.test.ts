import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamFrame } from '../../src/contract/schemas.js';
import { hashPassword } from '../../src/service/panel/passwords.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { recordingLogger } from '../support/recording-logger.js';
import { startTcpCutProxy, type TcpCutProxy } from '../support/tcp-cut-proxy.js';
import { ADMIN_TOKEN, KEY_A1, NOTCH, startTestService, type TestService } from './helpers/fixture.js';
import { PanelClient } from './helpers/panel-client.js';
import { openStreamSession, refusedUpgrade, type StreamSession } from './helpers/stream-session.js';

/** How long PostgreSQL stays unreachable: the outage. */
const OUTAGE_MS = 10_000;
const PASSWORD = 'correct horse battery';

/** Waits for a condition, for at most `ms`; the reason names what did not happen. */
async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** What one request during the outage answered. */
interface Answer {
  what: string;
  status: number;
  retryAfter: string | null;
  body: string;
}

/** A stream client that keeps every punishment frame it is pushed. */
function streamClient(service: TestService): { session: StreamSession; punishmentIds: string[]; ready: Promise<void> } {
  const session = openStreamSession(service.service.url, KEY_A1, '?protocol=2');
  const punishmentIds: string[] = [];
  const ready = (async () => {
    await session.opened;
    await session.untilCaughtUp();
    void (async () => {
      for (;;) {
        let frame: StreamFrame;
        try {
          frame = await session.next(120_000);
        } catch {
          return;
        }
        if (frame.type === 'punishment') punishmentIds.push(frame.punishment.id);
      }
    })();
  })();
  return { session, punishmentIds, ready };
}

/**
 * Issue 31: with PostgreSQL unreachable for 10 s, every route of every instance answers 503 with
 * the error body, `Retry-After` and a message naming the database; a valid key is never
 * throttled as a wrong one; once PostgreSQL is back the instances answer again without a restart,
 * and every change made around the outage reaches every stream client on both instances.
 */
describe('a PostgreSQL outage seen by two instances', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let proxy: TcpCutProxy;
  const instances: TestService[] = [];
  const logs = [recordingLogger(), recordingLogger()];
  const streams: Array<ReturnType<typeof streamClient>> = [];
  let panel: PanelClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    const upstream = new URL(database.url);
    proxy = await startTcpCutProxy({ host: upstream.hostname, port: Number(upstream.port) });
    for (const [n, log] of logs.entries()) {
      instances.push(
        await startTestService({
          databaseUrl: proxy.urlThrough(database.url),
          ids: () => `i${n}-${crypto.randomUUID()}`,
          logger: log.logger,
        }),
      );
    }
    const [a] = instances as [TestService];
    const alpha = (await a.service.context.stores.networks.findNetwork('alpha'))!;
    await a.service.context.stores.panelAccounts.create({
      networkId: alpha,
      username: 'mod',
      passwordHash: await hashPassword(PASSWORD),
      role: 'moderator',
      nowMs: a.clock.now(),
    });
    panel = new PanelClient(a.service.url);
    expect((await panel.login('mod', PASSWORD)).status).toBe(303);
    for (const instance of instances) streams.push(streamClient(instance));
    await Promise.all(streams.map((stream) => stream.ready));
  });
  afterAll(async () => {
    for (const stream of streams) stream.session.ws.terminate();
    await proxy?.restore();
    for (const instance of instances.reverse()) await instance.close();
    await proxy?.close();
    await database?.drop();
  });

  const ban = async (via: TestService, reason: string) => {
    const created = await via.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: 'Mod',
      reason,
    });
    expect(created.status).toBe(200);
    return ((await created.json()) as { punishmentId: string }).punishmentId;
  };

  /** One round of every kind of route on one instance, with the answers. */
  async function everyRoute(instance: TestService): Promise<Answer[]> {
    const answer = async (what: string, response: Response): Promise<Answer> => ({
      what,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    });
    const panelHere = panel.sameSessionAt(instance.service.url);
    const page = await panelHere.get('/panel/');
    const handshake = await refusedUpgrade(instance.service.url, KEY_A1);
    return [
      await answer('recent', await instance.call('GET', '/punishments/recent?hours=1')),
      await answer(
        'login check',
        await instance.call('POST', '/player/login', { minecraftUuid: NOTCH, username: 'Notch' }),
      ),
      await answer(
        'create',
        await instance.call('POST', '/punishments/dynamic', {
          targetUuid: NOTCH,
          typeOrdinal: 2,
          issuerName: 'Mod',
          reason: 'during the outage',
        }),
      ),
      await answer('a wrong key', await instance.call('GET', '/punishments/recent?hours=1', undefined, 'not-a-key')),
      await answer('admin', await instance.admin('GET', '/networks/alpha/migrations', undefined, ADMIN_TOKEN)),
      { what: 'panel', status: page.status, retryAfter: page.headers.get('retry-after'), body: page.html },
      {
        what: 'stream handshake',
        status: handshake.status,
        retryAfter: handshake.retryAfter ?? null,
        body: JSON.stringify(handshake.body),
      },
    ];
  }

  it('answers 503 naming the database on every route, never 429, and recovers with every change pushed', async () => {
    const [a, b] = instances as [TestService, TestService];
    const before = await ban(a, 'before the outage');
    await waitFor('both streams to get the ban made before the outage', () =>
      streams.every((stream) => stream.punishmentIds.includes(before)),
    );

    await proxy.cut();
    const cutAt = Date.now();
    const answers: Answer[] = [];
    let rounds = 0;
    while (Date.now() - cutAt < OUTAGE_MS) {
      for (const instance of [a, b]) answers.push(...(await everyRoute(instance)));
      rounds += 1;
    }
    await proxy.restore();

    // More rounds than the wrong-key allowance (10 a minute): a valid key counted as wrong would show 429s.
    expect(rounds).toBeGreaterThan(10);
    const notUnavailable = answers.filter((answer) => answer.status !== 503);
    expect(notUnavailable.map(({ what, status }) => `${what}: ${status}`)).toEqual([]);
    for (const answer of answers) {
      expect(answer.retryAfter, answer.what).toBe('5');
      expect(answer.body, answer.what).toContain('the PostgreSQL database cannot be reached');
    }
    const apiAnswers = answers.filter((answer) => answer.what !== 'panel');
    for (const answer of apiAnswers) {
      expect(JSON.parse(answer.body), answer.what).toEqual({
        status: 503,
        success: false,
        error: 'Service Unavailable',
        message: 'service unavailable: the PostgreSQL database cannot be reached; retry in 5 s',
        retryAfterSeconds: 5,
      });
    }
    // The log says it once every 10 s, not once a request.
    for (const log of logs) {
      const lines = log.lines.filter((line) => line.message === 'database unavailable: answering 503');
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.length).toBeLessThanOrEqual(3);
    }

    // Back without a restart: a valid key is answered (not throttled), and what is written reaches every stream.
    for (const instance of [a, b]) {
      await waitFor('the instance to answer again', async () => {
        const response = await instance.call('GET', '/punishments/recent?hours=1');
        expect(response.status === 200 || response.status === 503).toBe(true);
        return response.status === 200;
      });
    }
    const afterViaB = await ban(b, 'right after the outage, through B');
    const afterViaA = await ban(a, 'right after the outage, through A');
    for (const [n, stream] of streams.entries()) {
      await waitFor(`stream ${n} to get both bans made after the outage`, () =>
        [afterViaB, afterViaA].every((id) => stream.punishmentIds.includes(id)),
      );
    }
    const page = await panel.get('/panel/');
    expect(page.status).toBe(200);
  });
});
