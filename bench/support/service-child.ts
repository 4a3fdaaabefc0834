import { monitorEventLoopDelay, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { SERVICE_COMMAND_WARM_UP_CHECKS, startService } from '../../src/service/index.js';
import { emptyLoopStats, type LoopStats } from './loop-stats.js';

/**
 * Child process of the login benches: the reference service on its own event loop, so the load
 * generator does not share it, warmed up at start as `bailiff service` is (BAILIFF_BENCH_WARM_UP_CHECKS
 * sets another number of checks; 0 starts it cold). argv[2] is the database file, or a `postgres://`
 * URL; tells the parent its URL and CPU time so far over IPC
 * the moment it is up, answers `cpu` with its CPU time so far (process.cpuUsage), `loop:read` with
 * its event-loop delay and GC pauses since it was up or since `loop:reset`, and closes when the
 * parent says `close` or goes away.
 */
const database = process.argv[2]!;
const service = await startService({
  port: 0,
  host: '127.0.0.1',
  ...(database.startsWith('postgres') ? { databaseUrl: database } : { dbPath: database }),
  rateLimitPerMinute: 1e9,
  // The load generator plays every game server from one address, which the per-address cap would refuse.
  connectionsPerAddress: 1e6,
  warmUpChecks: Number(process.env.BAILIFF_BENCH_WARM_UP_CHECKS ?? SERVICE_COMMAND_WARM_UP_CHECKS),
});
const MS = 1e6;
// How long the loop kept anything waiting (a request, a timer), sampled every millisecond.
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
let gc = emptyLoopStats().gc;
new PerformanceObserver((entries) => {
  for (const entry of entries.getEntries()) {
    gc.count += 1;
    gc.totalMs += entry.duration;
    gc.maxMs = Math.max(gc.maxMs, entry.duration);
    // NODE_PERFORMANCE_GC_MAJOR: a full mark-compact, the pause that grows with the heap.
    if ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === 4) gc.major += 1;
  }
}).observe({ entryTypes: ['gc'] });
const close = async () => {
  await service.close();
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'close') void close();
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'loop:reset') {
    loopDelay.reset();
    gc = emptyLoopStats().gc;
  }
  if (message === 'loop:read') {
    const loop: LoopStats = {
      p50: loopDelay.percentile(50) / MS,
      p99: loopDelay.percentile(99) / MS,
      max: loopDelay.max / MS,
      gc: { ...gc },
    };
    process.send?.({ loop });
  }
});
process.on('disconnect', () => void close());
// With its CPU time at that moment, so the restart storm's share can be told from the start's.
process.send?.({ url: service.url, cpu: process.cpuUsage() });
