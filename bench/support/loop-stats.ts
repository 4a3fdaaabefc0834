/** How long a service's event loop kept work waiting (monitorEventLoopDelay, 1 ms resolution), in ms, and its GC pauses. */
export interface LoopStats {
  p50: number;
  p99: number;
  max: number;
  gc: {
    count: number;
    /** Full mark-compact collections among them. */
    major: number;
    totalMs: number;
    maxMs: number;
  };
}

export function emptyLoopStats(): LoopStats {
  return { p50: 0, p99: 0, max: 0, gc: { count: 0, major: 0, totalMs: 0, maxMs: 0 } };
}

/** The GC part of a row's notes. */
export function describeGc({ gc }: LoopStats): string {
  return `GC: ${gc.count} pauses (${gc.major} full), ${gc.totalMs.toFixed(1)} ms in all, longest ${gc.maxMs.toFixed(1)} ms`;
}
