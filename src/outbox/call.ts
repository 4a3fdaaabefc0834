import type { Payload, QueueableName } from '../contract/endpoints.js';

/** One write to the service, as stored in a row: a queueable operation of the endpoint table and its payload. */
export type OutboxCall = { [Name in QueueableName]: { operation: Name; payload: Payload<Name> } }[QueueableName];

export type OutboxOperation = OutboxCall['operation'];
