import { createError } from '../errors/create-error.js';

/** A call given to `enqueue` that cannot be stored; the message names the operation and the field. */
export class OutboxEnqueueError extends createError('BAILIFF_OUTBOX_INVALID_CALL', 'OutboxEnqueueError', TypeError) {
  constructor(message: string) {
    super(`cannot enqueue: ${message}`);
  }
}
