/**
 * The reference service in its own process, so a bench can read its RSS: argv[2] is the SQLite
 * file, argv[3] the service options as JSON. Sends `{ url }` over IPC once listening and closes
 * on the message `close`.
 */
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
  ...JSON.parse(process.argv[3] ?? '{}'),
});
process.send?.({ url: service.url });
process.on('message', async (message) => {
  if (message !== 'close') return;
  await service.close();
  process.exit(0);
});
