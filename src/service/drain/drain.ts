import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../../ports/logger.js';
import type { Readiness } from '../health/readiness.js';
import type { StreamServer } from '../stream/stream-server.js';
import type { InFlightRequests } from './in-flight-requests.js';

export interface DrainParts {
  readiness: Readiness;
  inFlight: InFlightRequests;
  stream: StreamServer;
  logger: Logger;
  /** Requests are answered for at least this long after /readyz turned 503 (the load balancer's reaction time). */
  delayMs: number;
  /** The whole drain takes at most this long; what is still open then is cut. */
  timeoutMs: number;
  /** Closes everything (the service's close). */
  close(): Promise<void>;
}

/**
 * An instance's gentle shutdown: `/readyz` turns 503 at once; new streams are refused and open
 * ones closed with 1001, so their servers connect to another instance and resume there; requests
 * keep being answered (with `Connection: close`) for `delayMs` and until none is in flight; then
 * everything closes. Bounded by `timeoutMs`.
 */
export async function drainInstance(parts: DrainParts): Promise<void> {
  const { readiness, inFlight, stream, logger } = parts;
  readiness.startDraining();
  inFlight.startDraining();
  logger.info('draining: /readyz answers 503, streams are closed with 1001', {
    requestsInFlight: inFlight.size,
    streams: stream.openConnections,
  });
  const timeout = new AbortController();
  // Streams and requests drain side by side: a client slow to answer the close frame holds up no request.
  const drained = Promise.all([
    stream.drain(parts.timeoutMs),
    (async () => {
      if (parts.delayMs > 0) await sleep(parts.delayMs, undefined, { signal: timeout.signal });
      await inFlight.whenIdle();
    })(),
  ]).then(
    () => true,
    () => false,
  );
  const isInTime = await Promise.race([
    drained,
    sleep(parts.timeoutMs, false, { signal: timeout.signal }).catch(() => false),
  ]);
  timeout.abort();
  if (!isInTime) {
    logger.warn('drain took too long: cutting what is still open', {
      requestsInFlight: inFlight.size,
      streams: stream.openConnections,
    });
  }
  await parts.close();
  logger.info('drained and closed', {});
}
