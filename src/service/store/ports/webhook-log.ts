export type { LogEntry } from '../../webhooks/webhook-log.js';
export { MAX_LOG_ENTRIES } from '../../webhooks/webhook-log.js';

import type { LogEntry } from '../../webhooks/webhook-log.js';

/** The delivery log of each endpoint, bounded to its newest MAX_LOG_ENTRIES entries. */
export interface WebhookLogPort {
  /** Adds the entry (none when the endpoint is gone) and drops the endpoint's oldest beyond the bound. */
  add(entry: LogEntry): Promise<void>;
  /** The newest `limit` entries, newest first. */
  entries(webhookId: number, limit: number): Promise<LogEntry[]>;
}
