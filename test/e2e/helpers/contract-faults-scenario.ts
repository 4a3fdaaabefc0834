import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createModerationClient } from '../../../src/api/client.js';
import { readFetchLog } from '../../support/client-windows.js';
import { startContractProxy } from '../../support/contract-proxy.js';
import { seededDeckPlan } from '../../support/fault-plan.js';
import { fetchRecorderEnv, type RecordedFetch } from '../../support/fetch-recorder.js';
import type { ProxyLog } from '../../support/proxy-log.js';
import { type OutboxCounts, outboxAfterStop } from './bailiff-cli.js';
import { mustJoin, offlineUuid, type TestBot } from './bots.js';
import { statusOnceDrained } from './console-status.js';
import { countCreations, waitForAcknowledgements } from './contract-faults-checks.js';
import { SCRIPT, type ScriptedPunishment, STAFF, TARGETS } from './contract-faults-script.js';
import {
  REPOSITORY_ROOT,
  type RunningGameServer,
  startGameServerProcess,
  writeTestServerFolder,
} from './game-server.js';
import { API_KEY, startTestService } from './service.js';
import { punishmentsAtService } from './service-rows.js';
import { waitFor } from './wait.js';

export const DEFAULT_FAULT_SEED = 1616;
/** Built, as the game server runs it. */
const FETCH_RECORDER = join(REPOSITORY_ROOT, 'dist', 'test', 'support', 'fetch-recorder.js');

export interface ContractFaultsOptions {
  /** Temporary folder for the service's and the server's files. */
  dir: string;
  seed: number;
  idempotencyKey: 'pass' | 'strip';
}

export interface ContractFaultsOutcome {
  seed: number;
  log: ProxyLog;
  /** Every request the plugin sent and every 429 it received, by its own clock (see fetch-recorder.ts). */
  clientLog: RecordedFetch[];
  /** The proxy's base URL, as the client log names it. */
  proxyOrigin: string;
  /** Staff commands (console and in game): label -> punishments created for it at the service. */
  creationsPerCommand: Record<string, number>;
  /** Labels whose enforcement the service never heard of (no acknowledgement, or no notice acknowledgement for warnings). */
  unacknowledged: string[];
  /** The last `bailiff status` before the stop, and whether its outbox had drained. */
  status: { drained: boolean; text: string };
  outbox: { counts: OutboxCounts; text: string };
  stopCode: number | null;
  /** Everything the game server printed. */
  output: string;
}

/**
 * The contract-only profile under a seeded fault plan: the reference service behind the fault
 * proxy, a real game server running Bailiff (`bailiff start`) and real bots; punishments issued
 * in the panel and by staff commands, each waited for at its target; then the acknowledgements
 * and the outbox are given time to drain, the server is stopped cleanly and the outcome read
 * from the service, the proxy's log and the plugin's database.
 */
export async function runContractFaults(options: ContractFaultsOptions): Promise<ContractFaultsOutcome> {
  const service = await startTestService({ dbPath: join(options.dir, 'service.db'), players: [STAFF, ...TARGETS] });
  const proxy = await startContractProxy({
    upstream: () => service.url,
    profile: 'contract',
    plan: seededDeckPlan({ seed: options.seed }),
    idempotencyKey: options.idempotencyKey,
  });
  const serverDir = join(options.dir, 'server');
  writeTestServerFolder(serverDir, {
    sync: { pollIntervalMs: 500, stream: 'auto' },
    outbox: { baseDelayMs: 200, maxDelayMs: 1000 },
  });
  appendFileSync(join(serverDir, 'server.yml'), `ops: [${STAFF}]\n`);
  const fetchLog = join(options.dir, 'plugin-fetches.jsonl');
  const bots: TestBot[] = [];
  let game: RunningGameServer | undefined;
  try {
    game = await startGameServerProcess(serverDir, {
      BAILIFF_API_URL: proxy.url,
      BAILIFF_API_KEY: API_KEY,
      ...fetchRecorderEnv(FETCH_RECORDER, fetchLog),
    });
    for (const name of [STAFF, ...TARGETS]) bots.push(await mustJoin(game.port, name));
    const botNamed = (name: string) => bots.find((bot) => bot.name === name)!;
    const panelIds = new Map<string, string>();
    for (const step of SCRIPT) {
      const id = await issue(step, { game, staff: botNamed(STAFF), serviceUrl: service.url });
      if (id) panelIds.set(step.label, id);
      await seenByTarget(step, botNamed(step.target));
      // Paced by the service: the next one once this one's enforcement is acknowledged (or 15 s).
      await waitForAcknowledgements(service.url, panelIds, [step], 15_000);
    }
    const unacknowledged = await waitForAcknowledgements(service.url, panelIds, SCRIPT, 45_000);
    const status = await statusOnceDrained(game, 30_000);
    for (const bot of bots) await bot.quit().catch(() => {});
    const stopCode = await game.stop();
    const rows = await punishmentsAtService(service.url);
    return {
      seed: options.seed,
      log: proxy.log,
      clientLog: readFetchLog(fetchLog),
      proxyOrigin: new URL(proxy.url).origin,
      creationsPerCommand: countCreations(rows),
      unacknowledged,
      status: { drained: status.drained, text: status.status },
      outbox: await outboxAfterStop(join(serverDir, 'plugin-data', 'Bailiff', 'bailiff.db')),
      stopCode,
      output: game.output(),
    };
  } finally {
    for (const bot of bots) await bot.quit().catch(() => {});
    await game?.stop();
    await proxy.close();
    await service.close();
  }
}

/** Issues one scripted punishment; a panel one resolves with its id. */
async function issue(
  step: ScriptedPunishment,
  where: { game: RunningGameServer; staff: TestBot; serviceUrl: string },
): Promise<string | undefined> {
  if (step.panel) {
    const panel = createModerationClient({ baseUrl: where.serviceUrl, apiKey: API_KEY });
    const created = await panel.createPunishmentDynamic({
      targetUuid: offlineUuid(step.target),
      typeOrdinal: step.panel.typeOrdinal,
      issuerName: 'Panel',
      reason: step.reason,
      duration: step.panel.duration,
      ...(step.panel.status === undefined ? {} : { status: step.panel.status }),
    });
    return created.punishmentId;
  }
  if (step.issuer === 'console') where.game.console(step.command!);
  else where.staff.bot.chat(`/${step.command}`);
  return undefined;
}

function seenByTarget(step: ScriptedPunishment, target: TestBot): Promise<unknown> {
  const what = `${step.target} to be ${step.effect} (${step.label})`;
  if (step.effect === 'kicked') return waitFor(what, () => target.kickedWith?.includes(step.reason), 20_000);
  const notice = step.effect === 'muted' ? 'You have been muted' : 'You received a';
  return waitFor(what, () => target.seen.some((line) => line.includes(notice) && line.includes(step.reason)), 20_000);
}
