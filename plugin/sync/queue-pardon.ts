import type { OutboxWriter } from '../acks/acknowledgements.js';
import type { LocalPardon } from '../cache/local-creations.js';

/** Queues the pardon extension's call for one punishment; once per punishment. */
export function queuePardon(outbox: OutboxWriter, punishment: { id: string }, pardon: LocalPardon): void {
  outbox.enqueue(
    {
      operation: 'pardonPunishment',
      payload: {
        punishmentId: punishment.id,
        body: { issuerName: pardon.issuerName, ...(pardon.reason === '' ? {} : { reason: pardon.reason }) },
      },
    },
    { idempotencyKey: `pardon:${punishment.id}`, orderingKey: punishment.id },
  );
}
