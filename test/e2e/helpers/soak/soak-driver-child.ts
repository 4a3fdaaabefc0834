/**
 * The players of one game server under soak, in a process of their own (see soak-driver.ts): a
 * Bedrock client spends about a second of CPU parsing what it is sent at login, and players
 * sharing a busy process with others miss their keep-alives and are dropped. Started by
 * soak-run.ts with a {@link DriverOrder} over IPC; sends `{ progress }` after each cycle,
 * `{ console: line }` for a line to type on the server's console, and `{ tally }` at the end.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { HOSTS } from '../hosts.js';
import { SoakDriver } from './soak-driver.js';
import type { SoakEdition } from './soak-population.js';
import { emptyTally, type NamesMode, type SoakTally } from './soak-tally.js';

export interface DriverOrder {
  edition: SoakEdition;
  label: string;
  hostName: string;
  port: number;
  serviceUrl: string;
  names: NamesMode;
  whispers: boolean;
  durationMs: number;
  cycleMs: number;
}

export interface DriverProgress {
  joins: number;
  cycles: number;
}

/** The tally as it crosses IPC (its Map as entries). */
export type SentTally = Omit<SoakTally, 'admittedByUuid'> & { admittedByUuid: Array<[string, number]> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function drive(order: DriverOrder): Promise<void> {
  const host = HOSTS[order.edition === 'java' ? 0 : 1]!;
  const tally = emptyTally(order.label, order.hostName, order.names);
  const game = { port: order.port, console: (line: string) => process.send?.({ console: line }) };
  const driver = new SoakDriver(host, order.edition, game, order.serviceUrl, order.names, tally, order.whispers);
  await driver.start();
  process.send?.({ started: true });
  // A player that misses its keep-alives for 30 s is dropped: how long this process kept them waiting.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const startedAt = Date.now();
  for (let cycle = 0; Date.now() - startedAt < order.durationMs; cycle += 1) {
    const cycleStartedAt = Date.now();
    await driver.runCycle(cycle);
    process.send?.({ progress: { joins: tally.joinAttempts, cycles: tally.cycles } satisfies DriverProgress });
    await sleep(order.cycleMs - (Date.now() - cycleStartedAt));
  }
  await driver.stop();
  loop.disable();
  tally.playersLoop = { p99Ms: loop.percentile(99) / 1e6, maxMs: loop.max / 1e6, meanMs: loop.mean / 1e6 };
  const sent: SentTally = { ...tally, admittedByUuid: [...tally.admittedByUuid] };
  process.send?.({ tally: sent });
}

process.once('message', (message) => {
  drive(message as DriverOrder).catch((error: unknown) => {
    process.send?.({ failed: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  });
});
process.on('disconnect', () => process.exit(0));
