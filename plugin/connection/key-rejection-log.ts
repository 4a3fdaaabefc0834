import type { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import type { Logger } from '../../src/ports/logger.js';

/**
 * One loud line when the service rejects the API key (a 401 from any call), naming where the key
 * came from, and one when it accepts it again; the calls in between are held by the gate quietly.
 */
export function logKeyRejections(gate: RateLimitGate, logger: Logger, keySource: string): void {
  gate.events.on('gate:key-rejected', ({ endpoint }) => {
    logger.error(
      `the moderation service rejected the API key (401 on ${endpoint}); the key comes from ${keySource}. ` +
        'Check it: polling, the stream and the outbox wait and ask again with a growing pause; nothing queued is lost',
    );
  });
  gate.events.on('gate:key-accepted', () => logger.info('the moderation service accepts the API key again'));
}
