/**
 * The soak: `bailiff start` on flying-squid and on SerenityJS side by side (or the one host named
 * by BAILIFF_SOAK_HOSTS) under the issue's load for BAILIFF_SOAK_MINUTES (10 by default): first with the same names coming back every cycle,
 * then with new names every cycle, half the time each, each on fresh servers. Every 5 s ten
 * players join a server together, chat, `/msg` or `/tickets`, report each other and leave; mutes,
 * bans (API and console) and pardons; 1,000 active bans and 2,000 players at the service (its own
 * process). Memory is read after full garbage collections through each server's inspector. The
 * promises (test/e2e/helpers/soak/soak-outcomes.ts) are checked too; CI runs two minutes of them
 * as test/e2e/soak.e2e.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { soakServers } from '../test/e2e/helpers/soak/soak-hosts.js';
import { brokenPromises } from '../test/e2e/helpers/soak/soak-outcomes.js';
import { runSoak } from '../test/e2e/helpers/soak/soak-run.js';
import { startSoakService } from '../test/e2e/helpers/soak/soak-service.js';
import type { ChatLine, MemorySample, NamesMode, SoakTally } from '../test/e2e/helpers/soak/soak-tally.js';
import { type BenchResult, summarize } from './result.js';
import {
  growthNote,
  growthPerThousandJoins,
  MINUTE_MS,
  soakDurationMs,
  soakHostNames,
} from './support/soak-figures.js';

const MB = 1024 * 1024;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** Chat lines sent in [fromMs, toMs) of the soak that reached the watching player, and how long they took. */
function latencies(lines: readonly ChatLine[], fromMs: number, toMs: number): number[] {
  return lines
    .filter((line) => line.sentAtMs >= fromMs && line.sentAtMs < toMs && line.seenAtMs !== undefined)
    .map((line) => line.seenAtMs! - line.sentAtMs);
}

function rows(tally: SoakTally, broken: string[], durationMs: number): BenchResult[] {
  const { memory } = tally;
  const name = (what: string) => `${tally.label}: ${what}`;
  const firstMinute = memory.filter((sample) => sample.atMs > 0 && sample.atMs < MINUTE_MS);
  const last = memory.at(-1)!;
  const average = (samples: MemorySample[], value: (sample: MemorySample) => number) =>
    samples.length === 0 ? Number.NaN : samples.reduce((sum, sample) => sum + value(sample), 0) / samples.length;
  const sentAt = tally.chat.map((line) => line.sentAtMs);
  const startedAt = sentAt.length === 0 ? 0 : Math.min(...sentAt);
  const endedAt = sentAt.length === 0 ? 0 : Math.max(...sentAt) + 1;
  const first = latencies(tally.chat, startedAt, startedAt + MINUTE_MS);
  const lastMinute = latencies(tally.chat, endedAt - MINUTE_MS, endedAt);
  const joinsNote = `${tally.joinAttempts} join attempts (admitted and refused) in ${tally.cycles} cycles over ${(durationMs / MINUTE_MS).toFixed(1)} min`;
  return [
    {
      name: name('heap after full GC, growth per 1,000 joins after the first minute'),
      unit: 'MB',
      value: round2(growthPerThousandJoins(memory, (sample) => sample.heapMb)),
      target: '<= 5 MB',
      notes: `${joinsNote}; ${growthNote(memory)}`,
    },
    {
      name: name('RSS growth per 1,000 joins after the first minute'),
      unit: 'MB',
      value: round2(growthPerThousandJoins(memory, (sample) => sample.rssMb)),
      target: '<= 30 MB',
    },
    {
      name: name('heap after full GC at the end'),
      unit: 'MB',
      value: round2(last.heapMb),
      notes: `first minute ${average(firstMinute, (sample) => sample.heapMb).toFixed(1)} MB; RSS ${average(firstMinute, (sample) => sample.rssMb).toFixed(0)} -> ${last.rssMb.toFixed(0)} MB`,
    },
    {
      name: name('join attempts'),
      unit: 'joins',
      value: tally.joinAttempts,
      notes: `${tally.joinRetries.length} tried again after the client gave up before the server answered`,
    },
    {
      name: name('login checks that did not answer in time'),
      unit: 'checks',
      value: tally.loginCheckTimeouts,
      target: '0',
      ...(tally.lateCheckLines.length > 0 ? { notes: tally.lateCheckLines.join(' / ') } : {}),
    },
    { name: name('chat line seen by another player, first minute'), unit: 'ms', ...summarize(first) },
    { name: name('chat line seen by another player, last minute'), unit: 'ms', ...summarize(lastMinute) },
    { name: name('ban (API or console) -> player kicked'), unit: 'ms', ...summarize(tally.bans.kickMs) },
    {
      name: name('/tickets told the service is busy'),
      unit: 'calls',
      value: tally.tickets.busy,
      notes: `of ${tally.tickets.asked}`,
    },
    {
      name: name('broken promises'),
      unit: 'count',
      value: broken.length,
      target: '0',
      notes:
        broken.join(' | ') ||
        `${tally.bannedAtJoin.refused}/${tally.bannedAtJoin.attempted} banned refused, ${tally.bans.kicked}/${tally.bans.issued} bans kicked, ${tally.mutes.held}/${tally.mutes.issued} mutes held, ${tally.pardons.admittedAgain} pardoned back, ${tally.chat.length} chat lines, ${tally.reports.length} reports, outbox empty`,
    },
    {
      name: name('game server event-loop delay during the cycles'),
      unit: 'ms',
      p99: tally.serverLoop ? round2(tally.serverLoop.p99Ms) : Number.NaN,
      value: tally.serverLoop ? round2(tally.serverLoop.maxMs) : Number.NaN,
      notes: `p99 of the worst 15 s window, value the max (a quiet loop reads 10 ms, the sampling interval); mean ${tally.serverLoop?.meanMs.toFixed(1)} ms; the soak's forced GCs left out; the players' process: p99 ${tally.playersLoop?.p99Ms.toFixed(0)} ms, max ${tally.playersLoop?.maxMs.toFixed(0)} ms${tally.watcher.kickedWith ? `; the watching player was kicked: ${tally.watcher.kickedWith}` : ''}`,
    },
    {
      name: name('plugin database and WAL at the end'),
      unit: 'MB',
      value: round2((tally.pluginFiles.db + tally.pluginFiles.wal) / MB),
      notes: `database ${(tally.pluginFiles.db / MB).toFixed(2)} MB, WAL ${(tally.pluginFiles.wal / MB).toFixed(2)} MB`,
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const durationMs = soakDurationMs();
  const hosts = soakHostNames();
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-soak-'));
  const service = await startSoakService(dir);
  const results: BenchResult[] = [];
  const tallies: SoakTally[] = [];
  try {
    for (const names of ['same', 'fresh'] as NamesMode[]) {
      tallies.push(
        ...(await runSoak({
          dir,
          service,
          servers: soakServers(names, hosts),
          durationMs: durationMs / 2,
          log: (line) => process.stderr.write(`  soak ${line}\n`),
        })),
      );
    }
    const loginChecks = await service.loginChecks();
    const serviceFiles = service.fileSizes();
    await service.close();
    const reportTickets = service.reportTickets(tallies.flatMap((tally) => tally.reports));
    for (const tally of tallies) {
      results.push(...rows(tally, brokenPromises(tally, { loginChecks, reportTickets }), durationMs / 2));
    }
    results.push({
      name: 'service database and WAL at the end',
      unit: 'MB',
      value: round2((serviceFiles.db + serviceFiles.wal) / MB),
      notes: `database ${(serviceFiles.db / MB).toFixed(2)} MB, WAL ${(serviceFiles.wal / MB).toFixed(2)} MB; 2,000 players and 1,000 active bans seeded`,
    });
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
