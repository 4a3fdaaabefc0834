import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outboxLine, statusOnceDrained } from '../console-status.js';
import { REPOSITORY_ROOT } from '../game-server.js';
import type { HostUnderTest } from '../hosts.js';
import type { DriverOrder, DriverProgress, SentTally } from './soak-driver-child.js';
import { type SoakGame, startSoakGame } from './soak-game.js';
import { BANNED_PER_EDITION, type SoakEdition } from './soak-population.js';
import type { SoakService } from './soak-service.js';
import type { NamesMode, SoakTally } from './soak-tally.js';

const DRIVER = join(REPOSITORY_ROOT, 'dist', 'test', 'e2e', 'helpers', 'soak', 'soak-driver-child.js');
/** Beyond the soak's duration: the last cycle, the watcher's leaving. */
const DRIVER_GRACE_MS = 300_000;

/** One game server of a soak. */
export interface SoakServerPlan {
  host: HostUnderTest;
  edition: SoakEdition;
  /** `flying-squid`, `serenity`. */
  hostName: string;
  names: NamesMode;
  /** Whether players can `/msg` each other on this host. */
  whispers: boolean;
}

export interface SoakRunOptions {
  dir: string;
  service: SoakService;
  servers: SoakServerPlan[];
  /** How long cycles keep starting, per server. */
  durationMs: number;
  /** A cycle starts at most this often. @default 5000 */
  cycleMs?: number;
  /** How often the servers' memory is sampled (after full GCs). @default 15000 */
  sampleEveryMs?: number;
  /** The login check's limit on the game servers. @default Bailiff's (300 ms) */
  loginCheckTimeoutMs?: number;
  /** Progress lines (a bench prints them). */
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = (text: string, needle: string) => text.split(needle).length - 1;
const LATE_CHECK = 'login check did not answer in time';

/** Runs the servers' soaks side by side; resolves with each one's tally once all have stopped. */
export function runSoak(options: SoakRunOptions): Promise<SoakTally[]> {
  if (!existsSync(DRIVER)) throw new Error(`${DRIVER} is missing: run \`npm run build\``);
  return Promise.all(options.servers.map((plan) => soakOne(options, plan)));
}

/** Forks the players' process and follows it: console lines it asks for, progress, its tally. */
function drivePlayers(order: DriverOrder, soak: SoakGame, onProgress: (progress: DriverProgress) => void) {
  const child: ChildProcess = fork(DRIVER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const started = new Promise<void>((resolve, reject) => {
    child.on('message', (message: Record<string, unknown>) => {
      if (message.started) resolve();
      if (typeof message.failed === 'string') reject(new Error(`the soak's players failed: ${message.failed}`));
    });
  });
  const tally = new Promise<SentTally>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the soak did not end')), order.durationMs + DRIVER_GRACE_MS);
    child.on('message', (message: Record<string, unknown>) => {
      if (typeof message.console === 'string') soak.game.console(message.console);
      if (message.progress) onProgress(message.progress as DriverProgress);
      if (typeof message.failed === 'string') {
        clearTimeout(timer);
        reject(new Error(`the soak's players failed: ${message.failed}`));
      }
      if (message.tally) {
        clearTimeout(timer);
        resolve(message.tally as SentTally);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the soak's players exited with ${code}`));
    });
  });
  tally.catch(() => {});
  child.send(order);
  return {
    started,
    tally,
    stop: () => {
      if (child.exitCode === null) child.kill();
    },
  };
}

async function soakOne(options: SoakRunOptions, plan: SoakServerPlan): Promise<SoakTally> {
  const label = `${plan.hostName}, ${plan.names} names`;
  const log = (line: string) => options.log?.(`[${label}] ${line}`);
  const serverDir = join(options.dir, `${plan.hostName}-${plan.names}`);
  const soak = await startSoakGame(
    plan.host,
    plan.edition,
    serverDir,
    options.service.url,
    2 * BANNED_PER_EDITION,
    options.loginCheckTimeoutMs,
  );
  const memory = [await soak.sample(0, 0)];
  let progress: DriverProgress = { joins: 0, cycles: 0 };
  const players = drivePlayers(
    {
      edition: plan.edition,
      label,
      hostName: plan.hostName,
      port: soak.game.port,
      serviceUrl: options.service.url,
      names: plan.names,
      whispers: plan.whispers,
      durationMs: options.durationMs,
      cycleMs: options.cycleMs ?? 5000,
    },
    soak,
    (latest) => {
      progress = latest;
    },
  );
  try {
    await players.started;
    const startedAt = Date.now();
    let ended = false;
    void players.tally.finally(() => {
      ended = true;
    });
    const every = options.sampleEveryMs ?? 15_000;
    while (!ended) {
      await Promise.race([sleep(every), players.tally.catch(() => {})]);
      if (ended) break;
      const sample = await soak.sample(Date.now() - startedAt, progress.joins);
      memory.push(sample);
      log(`${progress.joins} joins, heap ${sample.heapMb.toFixed(1)} MB, RSS ${sample.rssMb.toFixed(0)} MB`);
    }
    const sent = await players.tally;
    const tally: SoakTally = { ...sent, admittedByUuid: new Map(sent.admittedByUuid) };
    tally.serverLoop = await soak.loopDelay();
    memory.push(await soak.sample(Date.now() - startedAt, tally.joinAttempts));
    tally.memory = memory;

    const { status } = await statusOnceDrained(soak.game, 60_000);
    tally.outbox = outboxLine(status);
    tally.pluginFiles = soak.pluginFiles();
    const output = soak.game.output();
    writeFileSync(join(serverDir, 'console.log'), output);
    tally.loginCheckTimeouts = count(output, LATE_CHECK);
    tally.lateCheckLines = output
      .split('\n')
      .filter((line) => line.includes(LATE_CHECK))
      .slice(0, 5);
    tally.loginCheckFailures = count(output, 'login check failed');
    tally.mutedLinesOnConsole = output
      .split('\n')
      .filter((line) => line.includes('hush sk') && !line.includes('[muted]'));
    log(`done: ${tally.cycles} cycles, ${tally.joinAttempts} joins`);
    return tally;
  } finally {
    players.stop();
    await soak.stop();
  }
}
