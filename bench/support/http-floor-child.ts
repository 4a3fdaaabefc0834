import { createServer } from 'node:http';

/**
 * Child of bench/support/http-floor: a bare node:http server that reads each body and answers a
 * fixed JSON of a login check's size. Tells the parent its URL over IPC; exits when told `close`.
 */
const answer = JSON.stringify({
  success: true,
  message: '5 active punishments, 0 pending notifications',
  activePunishments: Array.from({ length: 5 }, (_, index) => ({ id: `FLOOR${index}`, reason: 'x'.repeat(120) })),
  pendingNotifications: [],
});
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    response.setHeader('content-type', 'application/json');
    response.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.send?.({ url: `http://127.0.0.1:${address.port}` });
});
process.on('message', (message) => {
  if (message === 'close') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
