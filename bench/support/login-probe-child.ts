/**
 * Child process of {@link startLoginProbeProcess}: runs a login probe (argv[2] service URL, argv[3]
 * server key, argv[4] number of banned players) on its own event loop, so what the probe measures is
 * the service and not a bench process busy with hundreds of simulated servers. Answers `stop` with
 * the probe's result and how late its own event loop ran at most (ms), and exits.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startLoginProbe } from './login-probe.js';

// The probe's own lateness: on a busy machine part of a check's time is this process waiting for a core.
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();
const probe = await startLoginProbe(process.argv[2]!, process.argv[3]!, Number(process.argv[4]));
loopDelay.reset();
process.on('message', async (message) => {
  if (message !== 'stop') return;
  const result = await probe.stop();
  process.send?.({ result, probeLoopDelayMaxMs: loopDelay.max / 1e6 }, () => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
process.send?.({ started: true });
