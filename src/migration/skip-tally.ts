import type { SkippedEntries } from './types.js';

const EXAMPLES_KEPT = 3;

/** Counts skipped entries per reason, keeping a few examples; memory bounded by the reasons. */
export class SkipTally {
  private readonly byReason = new Map<string, SkippedEntries>();

  add(reason: string, where: string): void {
    const entry = this.byReason.get(reason) ?? { reason, count: 0, examples: [] };
    entry.count += 1;
    if (entry.examples.length < EXAMPLES_KEPT) entry.examples.push(where);
    this.byReason.set(reason, entry);
  }

  /** Most frequent reason first. */
  list(): SkippedEntries[] {
    return [...this.byReason.values()].sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason));
  }
}
