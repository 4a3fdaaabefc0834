import { startService } from '../../src/service/index.js';

/**
 * Child process of bench/service-login-storm: the reference service on its own event loop, so the
 * load generator does not share it. argv[2] is the database file; tells the parent its URL over
 * IPC, answers `cpu` with its CPU time so far (process.cpuUsage), and closes when the parent says
 * `close` or goes away.
 */
const service = await startService({
  port: 0,
  host: '127.0.0.1',
  dbPath: process.argv[2]!,
  rateLimitPerMinute: 1e9,
  // The load generator plays every game server from one address, which the per-address cap would refuse.
  connectionsPerAddress: 1e6,
});
const close = async () => {
  await service.close();
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'close') void close();
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.on('disconnect', () => void close());
process.send?.({ url: service.url });
