/** A call given to `enqueue` that cannot be stored; the message names the operation and the field. */
export class OutboxEnqueueError extends TypeError {
  readonly code = 'BAILIFF_OUTBOX_INVALID_CALL';
  constructor(message: string) {
    super(`cannot enqueue: ${message}`);
    this.name = 'OutboxEnqueueError';
  }
}
