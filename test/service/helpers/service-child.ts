import { type ServiceOptions, startService } from '../../../src/service/index.js';

/**
 * A child process running the reference service with the JSON options of argv[2] (a test can
 * SIGKILL it mid-work, as an instance dies). Tells the parent its URL over IPC; closes when told
 * `close` or when the parent goes away.
 */
const options = JSON.parse(process.argv[2]!) as ServiceOptions;
const line =
  (level: string) =>
  (message: string, fields?: Record<string, unknown>): void => {
    process.stderr.write(`[service ${process.pid}] ${level} ${message} ${JSON.stringify(fields ?? {})}\n`);
  };
// Warnings and errors on stderr, where a failing test shows them.
const logger = { debug: () => {}, info: line('info'), warn: line('warn'), error: line('error') };
const service = await startService({ ...options, port: 0, host: '127.0.0.1', logger });
const close = async () => {
  await service.close();
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'close') void close();
});
process.on('disconnect', () => void close());
process.send?.({ url: service.url });
