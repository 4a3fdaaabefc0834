export { OUTBOX_OPERATIONS, PAYLOAD_SCHEMAS, parseCall, parseStoredCall } from './calls.js';
export { OutboxEnqueueError } from './errors.js';
export type { OutboxEvents } from './events.js';
export { createOutboxInspector, type OutboxInspector } from './inspect.js';
export { createOperationShare, type DroppedRow, type OperationShare } from './operation-share.js';
export { createOutbox } from './outbox.js';
export { type Decision, RETRY_RULES, type RetryRule } from './retry-policy.js';
export {
  hasOutboxTable,
  migrateOutbox,
  OUTBOX_COMPONENT,
  OUTBOX_SCHEMA_MIGRATIONS,
  type OutboxStatus,
} from './schema.js';
export { DEFAULT_OUTBOX_SETTINGS, type OutboxSettings, OutboxSettingsError, resolveSettings } from './settings.js';
export type {
  DeadLetter,
  EnqueueOptions,
  EnqueueResult,
  Outbox,
  OutboxCall,
  OutboxOperation,
  OutboxOptions,
  OutboxStats,
} from './types.js';
