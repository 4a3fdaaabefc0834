/**
 * Child of {@link startPacedLoginProcess}: sends paced login checks (paced-logins.ts) from its own
 * process, so the service's time is not mixed with the bench's own work. `{ warm: facts }` warms the
 * HTTP client on a bare server of its own and answers `{ warmed: true }`; `{ storm }` answers
 * `{ result, loopDelayMaxMs }`: what the storm saw, and how late this process's own loop ran at most.
 */
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FixtureFacts } from '../../test/service/helpers/network-fixture.js';
import { closeConnections, type PacedStorm, pacedLogins } from './paced-logins.js';

/** Checks sent to the bare server first: enough for V8 to have optimized the client's path. */
const CLIENT_WARM_UP = 5000;

const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();

/** Runs the client's whole path (agents, bodies, pacing) against a bare server answering a fixed body. */
async function warmClient(facts: FixtureFacts): Promise<void> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.end('{"success":true,"activePunishments":[],"pendingNotifications":[]}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    const { failures } = await pacedLogins({
      url: `http://127.0.0.1:${port}/v1/minecraft/player/login`,
      facts,
      total: CLIENT_WARM_UP,
      perSecond: 5000,
      firstBody: 0,
      servers: 50,
      maxInFlight: 64,
    });
    if (Object.keys(failures).length > 0) throw new Error(`client warm-up failed: ${JSON.stringify(failures)}`);
  } finally {
    closeConnections();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

process.on('message', async (message: { warm?: FixtureFacts; storm?: PacedStorm }) => {
  if (message.warm) {
    await warmClient(message.warm);
    process.send?.({ warmed: true });
  }
  if (message.storm) {
    loopDelay.reset();
    const result = await pacedLogins(message.storm);
    process.send?.({ result, loopDelayMaxMs: loopDelay.max / 1e6 });
  }
});
process.on('disconnect', () => process.exit(0));
process.send?.({ started: true });
