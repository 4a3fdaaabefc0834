import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { joinBot, mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { tearDownGameTest } from './helpers/teardown.js';
import { waitFor } from './helpers/wait.js';

const ACK_PATH = /\/punishments\/acknowledge$/;
const RECENT_PATH = /\/punishments\/recent$/;

/**
 * The plugin behind a fault-injecting proxy (polling only: the proxy has no stream): 429 and
 * 500 answers, a malformed `recent`, the service going away, and a restart of the game server.
 */
describe('resilience end to end', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-resilience-'));
  const names = ['Retry1', 'Malformed1', 'Offline1'];
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let serviceUrl = '';
  let proxy: ContractProxy;
  let game: RunningGameServer | undefined;
  const admin = adminApi(() => serviceUrl);
  const bots: TestBot[] = [];
  const env = () => ({ BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });

  const startServiceNow = async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: names });
    serviceUrl = service.url;
  };
  const ban = async (name: string, reason: string) => {
    const client = createModerationClient({ baseUrl: serviceUrl, apiKey: API_KEY });
    return (
      await client.createPunishmentDynamic({ targetUuid: offlineUuid(name), typeOrdinal: 2, issuerName: 'Mod', reason })
    ).punishmentId;
  };
  /** Two good `recent` answers after this point: the first one's punishments are applied by then. */
  const syncedAfter = (from: number) =>
    waitFor('two successful polls', () => {
      const good = proxy.log.requests.slice(from).filter((call) => RECENT_PATH.test(call.path) && call.status === 200);
      return good.filter((call) => call.fault.kind === 'pass').length >= 2;
    });

  beforeAll(async () => {
    await startServiceNow();
    proxy = await startContractProxy({
      upstream: () => serviceUrl,
      profile: 'no-stream',
      whenUpstreamDown: 'bad-gateway',
    });
    writeTestServerFolder(dir, {
      sync: { pollIntervalMs: 300, stream: 'off' },
      outbox: { baseDelayMs: 200, maxDelayMs: 800 },
    });
    game = await startGameServerProcess(dir, env());
  });

  afterAll(() => tearDownGameTest({ bots, game, service, proxy, dir }));

  it('retries an acknowledgement answered 429 and then 500 until it is delivered', async () => {
    proxy.inject({ path: ACK_PATH, times: 1, fault: { kind: 'rate-limit', channel: 'retry-after', waitSeconds: 1 } });
    proxy.inject({ path: ACK_PATH, times: 1, fault: { kind: 'server-error', status: 500 } });
    const bot = await mustJoin(game!.port, 'Retry1');
    bots.push(bot);
    const id = await ban('Retry1', 'retry me');
    await waitFor('the kick', () => bot.kickedWith);

    const state = await waitFor('the acknowledgement after the retries', async () => {
      const found = await admin.punishment(id);
      return found.acknowledgements.length > 0 ? found : undefined;
    });
    expect(state.acknowledgements).toHaveLength(1);
    expect(state.acknowledgements[0]).toMatchObject({ success: true });
    expect(proxy.log.requests.filter((call) => ACK_PATH.test(call.path)).map((call) => call.status)).toEqual([
      429, 500, 200,
    ]);
  });

  it('a malformed recent answer is logged and applies nothing; the next good one does', async () => {
    const bot = await mustJoin(game!.port, 'Malformed1');
    bots.push(bot);
    const malformed = '{"punishments":[{"id":42,"reason":null}]}';
    proxy.inject({ path: RECENT_PATH, times: 10_000, fault: { kind: 'answer', status: 200, body: malformed } });
    await ban('Malformed1', 'not yet');
    const from = proxy.log.requests.length;
    await waitFor(
      'three malformed answers',
      () =>
        proxy.log.requests.slice(from).filter((c) => c.fault.kind === 'answer' && c.status !== undefined).length >= 3,
    );

    expect(bot.kickedWith).toBeUndefined();
    expect(game!.output()).toContain('malformed response: nothing applied');
    expect(game!.output()).not.toContain(API_KEY);

    proxy.clearFaults();
    await waitFor('the kick once recent is well-formed again', () => bot.kickedWith);
    expect(bot.kickedWith).toContain('not yet');
  });

  it('with the service down, a known ban is still enforced; after a game server restart too; acks arrive when it returns', async () => {
    const id = await ban('Offline1', 'banned while away');
    await syncedAfter(proxy.log.requests.length);
    await service!.close();
    service = undefined;

    const refused = await joinBot(game!.port, 'Offline1');
    expect(refused.joined ? 'joined' : refused.reason).toContain('banned while away');
    await waitFor('the ack to be tried against the stopped service', () =>
      proxy.log.requests.some((call) => ACK_PATH.test(call.path) && call.status === 502),
    );

    await game!.stop();
    game = await startGameServerProcess(dir, env());
    const refusedAgain = await joinBot(game.port, 'Offline1');
    expect(refusedAgain.joined ? 'joined' : refusedAgain.reason).toContain('banned while away');

    await startServiceNow();
    const state = await waitFor('the queued acknowledgements to be delivered', async () => {
      const found = await admin.punishment(id);
      return found.acknowledgements.length > 0 && found.notificationAcknowledged ? found : undefined;
    });
    expect(state.acknowledgements[0]).toMatchObject({ success: true });
    expect(state.punishment.started).not.toBeNull();
  });
});
