import { createError } from '../errors/create-error.js';

/** Tunables of the outbox. Every field has a default; overrides are checked on creation. */
export interface OutboxSettings {
  /** Calls in flight at once. @default 4 */
  concurrency: number;
  /** Calls started per minute at most, across all operations. @default 600 */
  requestsPerMinute: number;
  /** First backoff ceiling after a transient failure (5xx, network, timeout). @default 1000 */
  baseDelayMs: number;
  /** Largest backoff ceiling. @default 300000 (5 minutes) */
  maxDelayMs: number;
  /** Attempts (transient failures) before a row is dead-lettered; null for no limit. @default null */
  maxAttempts: number | null;
  /** A row still failing this long after it was enqueued (or requeued) is dead-lettered. @default 604800000 (7 days) */
  maxAgeMs: number;
  /** How long a claim holds a row; a crashed drain's rows return to pending after it. @default 60000 */
  leaseMs: number;
  /** Wait after a 429 that did not say how long. @default 30000 */
  defaultRetryAfterMs: number;
  /** Delivered rows are kept this long (for `status`), then pruned. @default 86400000 (24 hours) */
  keepSentMs: number;
  /** An idle drainer still looks for due rows this often (rows requeued by `bailiff outbox retry-dead`). @default 30000 */
  idlePollMs: number;
}

export const DEFAULT_OUTBOX_SETTINGS: Readonly<OutboxSettings> = Object.freeze({
  concurrency: 4,
  requestsPerMinute: 600,
  baseDelayMs: 1000,
  maxDelayMs: 300_000,
  maxAttempts: null,
  maxAgeMs: 7 * 24 * 60 * 60 * 1000,
  leaseMs: 60_000,
  defaultRetryAfterMs: 30_000,
  keepSentMs: 24 * 60 * 60 * 1000,
  idlePollMs: 30_000,
});

/** A bad outbox setting; names the setting, what was expected and what was received. */
export class OutboxSettingsError extends createError(
  'BAILIFF_OUTBOX_INVALID_SETTING',
  'OutboxSettingsError',
  TypeError,
) {
  constructor(
    readonly setting: string,
    expected: string,
    received: unknown,
  ) {
    super(
      `Invalid outbox setting "${setting}": expected ${expected}, received ${JSON.stringify(received) ?? String(received)}`,
    );
  }
}

const MINIMUMS: Record<Exclude<keyof OutboxSettings, 'maxAttempts'>, number> = {
  concurrency: 1,
  requestsPerMinute: 1,
  baseDelayMs: 0,
  maxDelayMs: 0,
  maxAgeMs: 1,
  leaseMs: 1,
  defaultRetryAfterMs: 0,
  keepSentMs: 0,
  idlePollMs: 1,
};

/** Defaults merged with overrides; throws {@link OutboxSettingsError} for the first bad one. */
export function resolveSettings(overrides: Partial<OutboxSettings> = {}): OutboxSettings {
  const settings: OutboxSettings = { ...DEFAULT_OUTBOX_SETTINGS };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    if (!(key in DEFAULT_OUTBOX_SETTINGS)) {
      throw new OutboxSettingsError(key, `one of ${Object.keys(DEFAULT_OUTBOX_SETTINGS).join(', ')}`, key);
    }
    if (key === 'maxAttempts') {
      if (value !== null && !(Number.isInteger(value) && (value as number) >= 1)) {
        throw new OutboxSettingsError(key, 'an integer >= 1 or null (no limit)', value);
      }
      settings.maxAttempts = value as number | null;
      continue;
    }
    const minimum = MINIMUMS[key as keyof typeof MINIMUMS];
    if (!Number.isInteger(value) || (value as number) < minimum) {
      throw new OutboxSettingsError(key, `an integer >= ${minimum}`, value);
    }
    (settings as unknown as Record<string, number>)[key] = value as number;
  }
  if (settings.maxDelayMs < settings.baseDelayMs) {
    throw new OutboxSettingsError(
      'maxDelayMs',
      `a value >= baseDelayMs (${settings.baseDelayMs})`,
      settings.maxDelayMs,
    );
  }
  return settings;
}
