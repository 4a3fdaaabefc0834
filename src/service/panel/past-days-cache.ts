import type { Clock } from '../../ports/clock.js';

/** How long the counts of past days are reused; imports that backdate rows show up within this. */
export const PAST_DAYS_TTL_MS = 10 * 60 * 1000;
/** Networks whose counts are remembered; past it the oldest entry is dropped. */
const MAX_ENTRIES = 1000;

interface Entry<Value> {
  key: string;
  computedAtMs: number;
  value: Promise<Value>;
}

/**
 * The chart counts of the days before today, per network, reused for {@link PAST_DAYS_TTL_MS} and
 * until the day changes: a count over 30 days of a large network takes tens of milliseconds, while
 * today's part, counted at every request, stays small. One computation at a time per network.
 */
export class PastDaysCache<Value> {
  private readonly entries = new Map<number, Entry<Value>>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs = PAST_DAYS_TTL_MS,
  ) {}

  get(networkId: number, rangeKey: string, compute: () => Promise<Value>): Promise<Value> {
    const nowMs = this.clock.now();
    const cached = this.entries.get(networkId);
    if (cached && cached.key === rangeKey && nowMs - cached.computedAtMs < this.ttlMs) return cached.value;
    const value = compute();
    // A failed computation is not kept: the next request tries again.
    value.catch(() => {
      if (this.entries.get(networkId)?.value === value) this.entries.delete(networkId);
    });
    this.entries.delete(networkId);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(networkId, { key: rangeKey, computedAtMs: nowMs, value });
    return value;
  }
}
