import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { recordingLogger } from '../support/recording-logger.js';
import { startTcpCutProxy, type TcpCutProxy } from '../support/tcp-cut-proxy.js';
import { KEY_A1, NOTCH, startTestService, type TestService } from './helpers/fixture.js';
import { openStreamSession, type StreamSession } from './helpers/stream-session.js';

/** Waits for a condition, for at most `ms`; the reason names what did not happen. */
async function waitFor(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/**
 * Issue 31: an instance that has not seen a change of a network since it started still pushes the
 * first change made while its change listener was away, once the listener is back (it used to
 * wait for the next change). Instance B reaches PostgreSQL through a proxy the test cuts; A, which
 * writes, reaches it directly.
 */
describe('a change made while the change listener is away', { timeout: 90_000 }, () => {
  let database: TestDatabase;
  let proxy: TcpCutProxy;
  let a: TestService;
  let b: TestService;
  const bLog = recordingLogger();
  let stream: StreamSession;

  beforeAll(async () => {
    database = await createTestDatabase();
    const upstream = new URL(database.url);
    proxy = await startTcpCutProxy({ host: upstream.hostname, port: Number(upstream.port) });
    a = await startTestService({ databaseUrl: database.url, ids: () => `a-${crypto.randomUUID()}` });
    b = await startTestService({
      databaseUrl: proxy.urlThrough(database.url),
      ids: () => `b-${crypto.randomUUID()}`,
      logger: bLog.logger,
    });
  });
  afterAll(async () => {
    stream?.ws.terminate();
    await proxy?.restore();
    await b?.close();
    await a?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('reaches a stream client of a freshly started instance once PostgreSQL is reachable again', async () => {
    stream = openStreamSession(b.service.url, KEY_A1, '?protocol=2');
    await stream.opened;
    const caughtUp = await stream.untilCaughtUp();
    expect(caughtUp[0]).toMatchObject({ type: 'hello', resumed: false });

    await proxy.cut();
    await waitFor('B to notice its change listener is cut', () =>
      bLog.text().includes('change listener lost its PostgreSQL connection'),
    );
    const created = await a.call('POST', '/punishments/dynamic', {
      targetUuid: NOTCH,
      typeOrdinal: 2,
      issuerName: 'Mod',
      reason: 'made while B could not listen',
    });
    expect(created.status).toBe(200);
    const { punishmentId } = (await created.json()) as { punishmentId: string };
    await proxy.restore();

    const frame = await stream.next(20_000);
    expect(frame).toMatchObject({ type: 'punishment', punishment: { id: punishmentId } });
  });
});
