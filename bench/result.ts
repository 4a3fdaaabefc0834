/** One figure measured by a benchmark. Latencies are in the unit named (us, ms). */
export interface BenchResult {
  name: string;
  unit: string;
  p50?: number;
  p99?: number;
  value?: number;
  /** The target the design sets, as text (`p99 <= 2 us`). */
  target?: string;
  notes?: string;
}

/** Percentile of an ascending-sorted sample. */
export function percentile(sortedAscending: readonly number[], fraction: number): number {
  if (sortedAscending.length === 0) return Number.NaN;
  const index = Math.min(sortedAscending.length - 1, Math.ceil(fraction * sortedAscending.length) - 1);
  return sortedAscending[Math.max(0, index)]!;
}

/** p50 and p99 of raw samples (sorted here). */
export function summarize(samples: number[]): { p50: number; p99: number } {
  const sorted = Float64Array.from(samples).sort();
  const asArray = Array.from(sorted);
  return { p50: percentile(asArray, 0.5), p99: percentile(asArray, 0.99) };
}
