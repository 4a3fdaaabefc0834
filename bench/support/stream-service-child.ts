/**
 * The reference service in its own process, so a bench can read its RSS: argv[2] is the SQLite
 * file, argv[3] the service options as JSON. Sends `{ url }` over IPC once listening and closes
 * on the message `close`. `loop-delay:reset` restarts the event-loop delay histogram and
 * `loop-delay:read` answers `{ loopDelay: { p50, p99, max } }` in ms: how long the service's loop
 * kept anything (a request, a stream step) waiting since the reset; `cpu` answers its CPU time so far.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from '../../src/ports/logger.js';
import { startService } from '../../src/service/index.js';

// Only the snapshot renders go to the parent, which counts them.
const logger: Logger = {
  debug: () => {},
  info: (message, fields) => {
    if (message === 'stream snapshot rendered') process.send?.({ rendered: fields });
  },
  warn: () => {},
  error: (message) => process.stderr.write(`service: ${message}\n`),
};
const service = await startService({
  dbPath: process.argv[2],
  port: 0,
  logger,
  // The bench plays hundreds of game servers from one address: their handshakes would meet the per-address cap.
  connectionsPerAddress: 1e6,
  ...JSON.parse(process.argv[3] ?? '{}'),
});
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
const MS = 1e6;
process.send?.({ url: service.url });
process.on('message', async (message) => {
  if (message === 'loop-delay:reset') loopDelay.reset();
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'loop-delay:read') {
    const read = { p50: loopDelay.percentile(50) / MS, p99: loopDelay.percentile(99) / MS, max: loopDelay.max / MS };
    process.send?.({ loopDelay: read });
  }
  if (message !== 'close') return;
  await service.close();
  process.exit(0);
});
