import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModerationClient } from '../../src/api/client.js';
import { type ContractProxy, startContractProxy } from '../support/contract-proxy.js';
import { type FaultRule, withRules } from '../support/fault-plan.js';
import { joinBot, mustJoin, offlineUuid, type TestBot } from './helpers/bots.js';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { API_KEY, adminApi, startTestService } from './helpers/service.js';
import { punishmentsAtService } from './helpers/service-rows.js';
import { waitFor } from './helpers/wait.js';

const PLAYERS = ['Staff', 'Target', 'Witness'];
const REASON = 'banned during the outage';

/**
 * Issue 16, nothing issued here is forgotten: with the stream on (the reference service behind
 * a proxy that passes everything through), a ban issued by a staff command while the service is
 * down is applied here under a local id and queued. The service comes back on the same port
 * and SQLite file; the proxy holds the queued creation (503) until the stream has reconnected
 * and its snapshot, which cannot list the ban yet, has been applied. The ban must stay active.
 */
describe('a ban issued while the service is down, with the stream on', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-e2e-outage-stream-'));
  const rules: FaultRule[] = [];
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  let servicePort = 0;
  let proxy: ContractProxy;
  let game: RunningGameServer;
  const bots = new Map<string, TestBot>();

  const startServiceNow = async () => {
    service = await startTestService({ dbPath: join(dir, 'service.db'), port: servicePort, players: PLAYERS });
    servicePort = service.port;
  };
  const printedSince = (from: number, text: string) =>
    waitFor(`the server to print ${text}`, () => game.output().slice(from).includes(text), 20_000);
  /** The lines `who` saw after sending `line`, once `done` matches one of them. */
  const ask = async (who: TestBot, line: string, done: (seen: string[]) => boolean) => {
    const from = who.seen.length;
    who.bot.chat(line);
    return waitFor(
      `${who.name} to see the answer to ${line}`,
      () => done(who.seen.slice(from)) && who.seen.slice(from),
    );
  };

  beforeAll(async () => {
    await startServiceNow();
    // The service comes back on the same port: the proxy's upstream never changes.
    const upstream = `http://127.0.0.1:${servicePort}`;
    proxy = await startContractProxy({ upstream: () => upstream, profile: 'reference', plan: withRules(rules) });
    const serverDir = join(dir, 'server');
    writeTestServerFolder(serverDir, {
      sync: { stream: 'auto', pollIntervalMs: 500, reconnectMinDelayMs: 200, reconnectMaxDelayMs: 1000 },
      outbox: { baseDelayMs: 200, maxDelayMs: 1000 },
    });
    appendFileSync(join(serverDir, 'server.yml'), 'ops: [Staff]\n');
    game = await startGameServerProcess(serverDir, { BAILIFF_API_URL: proxy.url, BAILIFF_API_KEY: API_KEY });
    await printedSince(0, '"state":"connected"');
    for (const name of PLAYERS) bots.set(name, await mustJoin(game.port, name));
  });

  afterAll(async () => {
    for (const bot of bots.values()) await bot.quit().catch(() => {});
    await game?.stop();
    await proxy?.close();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is still active in /check and /banlist after the service returns and the stream reconnects', async () => {
    const [staff, target, witness] = PLAYERS.map((name) => bots.get(name)!) as [TestBot, TestBot, TestBot];
    const beforeOutage = game.output().length;
    await service!.close();
    service = undefined;
    await printedSince(beforeOutage, '"state":"disconnected"');

    staff.bot.chat(`/ban Target 1h ${REASON}`);
    await waitFor('Target to be kicked at once', () => target.kickedWith?.includes(REASON));

    rules.push({
      method: 'POST',
      path: /\/punishments\/dynamic$/,
      fault: { kind: 'server-error', status: 503 },
      times: Infinity,
    });
    const beforeReturn = game.output().length;
    await startServiceNow();
    await printedSince(beforeReturn, '"state":"connected"');
    // Pushed after the snapshot on the same stream: once Witness is kicked, the snapshot was applied.
    const panel = createModerationClient({ baseUrl: service!.url, apiKey: API_KEY });
    await panel.createPunishmentDynamic({
      targetUuid: offlineUuid('Witness'),
      typeOrdinal: 2,
      issuerName: 'Panel',
      reason: 'marker',
    });
    await waitFor('Witness to be kicked by the pushed ban', () => witness.kickedWith?.includes('marker'));

    rules.length = 0;
    const admin = adminApi(() => service!.url);
    const delivered = await waitFor(
      "the queued ban to reach the service and the service's copy to be acknowledged",
      async () => {
        const row = (await punishmentsAtService(service!.url)).find((punishment) => punishment.reason === REASON);
        return row && (await admin.punishment(row.id)).acknowledgements.length > 0 ? row : undefined;
      },
      30_000,
      300,
    );

    const check = await ask(staff, '/check Target', (seen) =>
      seen.some((line) => line.includes('Banned by') || line.includes('No active ban or mute')),
    );
    expect(check.join('\n')).toContain(`Banned by Staff`);
    expect(check.join('\n')).toContain(`(ID ${delivered.id})`);

    const banlist = await ask(staff, '/banlist', (seen) => {
      const header = seen.findIndex((line) => /Active bans \(\d+\)|No active bans/.test(line));
      const count = Number(/Active bans \((\d+)\)/.exec(seen[header] ?? '')?.[1] ?? 0);
      return header >= 0 && seen.length > header + count;
    });
    expect(banlist.some((line) => line.includes('Target by Staff') && line.includes(REASON))).toBe(true);

    const again = await joinBot(game.port, 'Target');
    if (again.joined) bots.set('Target again', again.bot);
    expect(again.joined ? 'admitted' : again.reason).toContain(REASON);
  });
});
