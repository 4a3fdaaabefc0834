import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { type FaultRule, withRules } from '../support/fault-plan.js';
import { outboxAfterStop } from './helpers/bailiff-cli.js';
import { mustJoin, type TestBot } from './helpers/bots.js';
import { statusOnceDrained } from './helpers/console-status.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { punishmentsAtService } from './helpers/service-rows.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Staff', 'Lost1', 'Lost2'];
const CREATION = /\/punishments\/dynamic$/;

/**
 * Issue 16, exactly one punishment per staff command: the answer to a staff command's first
 * creation is lost after the service created it (the proxy drops the connection once the
 * service has answered), in the contract-only profile, once with `Idempotency-Key` passed to
 * the service (which honours it) and once stripped (a service that ignores it, where Bailiff
 * must reconcile against `recent` before sending again).
 */
describe('a staff command whose creation answer is lost', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-lost-creation-'));
  const rules: FaultRule[] = [];
  let service: Awaited<ReturnType<typeof startTestService>>;
  let proxy: ContractProxy;
  let game: RunningGameServer;
  const bots = new Map<string, TestBot>();
  const serverDir = join(dir, 'server');

  /** Issues `line` with the first creation's answer lost; resolves once it is settled everywhere. */
  const issueWithLostAnswer = async (target: string, reason: string, send: () => void) => {
    rules.push({ method: 'POST', path: CREATION, fault: { kind: 'drop-after' }, times: 1 });
    send();
    await waitFor(`${target} to be kicked`, () => bots.get(target)!.kickedWith?.includes(reason), 20_000);
    const acknowledged = await waitFor(
      `the ban of ${target} to be created and acknowledged at the service`,
      async () => {
        for (const row of (await punishmentsAtService(service.url)).filter((each) => each.reason === reason)) {
          if ((await adminApi(() => service.url).punishment(row.id)).acknowledgements.length > 0) return true;
        }
        return undefined;
      },
      30_000,
      300,
    );
    expect(acknowledged).toBe(true);
    const drained = await statusOnceDrained(game, 30_000);
    expect(drained.drained, drained.status).toBe(true);
    // Two polls after the outbox drained: a second punishment would be in the cache (and announced) by then.
    const from = proxy.log.requests.length;
    await waitFor('two answered polls', () => {
      const polls = proxy.log.requests.slice(from).filter((entry) => entry.endpoint === 'recentPunishments');
      return polls.filter((entry) => entry.status === 200).length >= 2;
    });
    return {
      rows: (await punishmentsAtService(service.url)).filter((row) => row.reason === reason),
      creations: proxy.log.requests.filter(
        (entry) => entry.endpoint === 'createPunishmentDynamic' && entry.body.includes(reason),
      ),
      announcements: game
        .output()
        .split('\n')
        .filter((line) => line.includes(`banned ${target}`) && line.includes(reason)),
    };
  };

  beforeAll(async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), players: PLAYERS });
    proxy = await startContractProxy({ upstream: () => service.url, profile: 'contract', plan: withRules(rules) });
    writeTestServerFolder(serverDir, {
      sync: { pollIntervalMs: 500, stream: 'auto' },
      outbox: { baseDelayMs: 200, maxDelayMs: 1000 },
    });
    appendFileSync(join(serverDir, 'server.yml'), 'ops: [Staff]\n');
    game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });
    for (const name of PLAYERS) bots.set(name, await mustJoin(game.port, name));
  });

  afterAll(async () => {
    for (const bot of bots.values()) await bot.quit().catch(() => {});
    await game?.stop();
    await proxy?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('with Idempotency-Key passed through: one punishment, one announcement, every creation under one key', async () => {
    proxy.setIdempotencyKey('pass');
    const reason = 'lost answer, key passed';
    const outcome = await issueWithLostAnswer('Lost1', reason, () =>
      bots.get('Staff')!.bot.chat(`/ban Lost1 ${reason}`),
    );
    const keys = outcome.creations.map((entry) => entry.idempotencyKey);
    expect({
      punishments: outcome.rows.length,
      announcements: outcome.announcements.length,
      creationsWithoutKey: keys.filter((key) => key === undefined || key === '').length,
      distinctKeys: new Set(keys).size,
    }).toEqual({ punishments: 1, announcements: 1, creationsWithoutKey: 0, distinctKeys: 1 });
  });

  it('with Idempotency-Key stripped (a service that ignores it): still one punishment and one announcement', async () => {
    proxy.setIdempotencyKey('strip');
    const reason = 'lost answer, key stripped';
    const outcome = await issueWithLostAnswer('Lost2', reason, () => game.console(`ban Lost2 ${reason}`));
    expect({ punishments: outcome.rows.length, announcements: outcome.announcements.length }).toEqual({
      punishments: 1,
      announcements: 1,
    });
  });

  it('after a clean stop the outbox is empty, with no dead letter', async () => {
    for (const bot of bots.values()) await bot.quit().catch(() => {});
    expect(await game.stop()).toBe(0);
    const outbox = await outboxAfterStop(join(serverDir, 'plugin-data', 'Bailiff', 'bailiff.db'));
    expect(outbox.counts, outbox.text).toEqual({ pending: 0, inFlight: 0, dead: 0 });
  });
});
