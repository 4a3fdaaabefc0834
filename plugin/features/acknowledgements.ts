import { errorMessage } from '../../src/errors/error-message.js';
import type { OutboxEvents } from '../../src/outbox/events.js';
import type { Core } from '../core/core.js';
import type { Feature } from '../core/feature.js';
import { adoptDelivered } from '../sync/adopt-delivered.js';

/** A creation the outbox delivered takes the service's id here at once (its acknowledgements follow it). */
export function installAcknowledgements(core: Core): Feature {
  const onSent: OutboxEvents['outbox:sent'] = (delivered) => {
    try {
      adoptDelivered(core.enforcement, delivered);
    } catch (error) {
      // Sync adopts it by its content when the service's copy arrives.
      core.enforcement.logger.error('could not adopt a delivered creation', { error: errorMessage(error) });
    }
  };
  core.outbox.events.on('outbox:sent', onSent);
  return {
    name: 'acknowledgements',
    stop: () => {
      core.outbox.events.off('outbox:sent', onSent);
    },
  };
}
