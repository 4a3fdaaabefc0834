import type { Clock } from '../../src/ports/clock.js';
import type { TimerHandle, Timers } from '../../src/ports/timers.js';

/** The deadline counts its time in steps of this length, each one a timer. */
export const DEADLINE_STEP_MS = 25;
/** A step whose timer fires later than this past its time was a held event loop: only its own length counts. */
export const LOOP_LATE_MS = 5;

/** What a deadline saw of the event loop while it ran. */
export interface DeadlineLoopReport {
  /** Time the loop was held past the deadline's steps (not counted against the deadline). */
  heldMs: number;
  /** The longest single hold. */
  longestHoldMs: number;
}

/**
 * Calls `onExpired` once `timeoutMs` have passed during which this process could read an answer.
 * A game server's event loop is held for hundreds of milliseconds at a time while it sends chunks
 * to joining players, and a busy one runs turns of tens of milliseconds back to back; an answer
 * that arrived meanwhile waits unread in its socket, and reading it takes several turns. So the
 * deadline counts in steps of {@link DEADLINE_STEP_MS}, each a timer: a step fired on time counts
 * the time it took, a late one only its own length (the hold is not counted), so a busy loop
 * lengthens the deadline as much as it slows the answer. Once `timeoutMs` are counted the loop
 * reads its sockets once more before expiring. Returns a cancel function; `report` says what the
 * loop was held meanwhile.
 */
export function startLoopAwareDeadline(
  timers: Timers,
  clock: Clock,
  timeoutMs: number,
  onExpired: (report: DeadlineLoopReport) => void,
): () => void {
  const report: DeadlineLoopReport = { heldMs: 0, longestHoldMs: 0 };
  let handle: TimerHandle | undefined;
  let counted = 0;
  let stepMs = 0;
  let armedAt = 0;
  let readOnce = false;
  const arm = (delayMs: number) => {
    stepMs = delayMs;
    armedAt = clock.now();
    handle = timers.setTimeout(fire, delayMs);
  };
  function fire() {
    handle = undefined;
    const tookMs = clock.now() - armedAt;
    const lateMs = tookMs - stepMs;
    if (lateMs > LOOP_LATE_MS) {
      report.heldMs += lateMs;
      report.longestHoldMs = Math.max(report.longestHoldMs, lateMs);
      counted += stepMs;
    } else counted += Math.max(tookMs, stepMs);
    if (counted < timeoutMs) return arm(Math.min(DEADLINE_STEP_MS, timeoutMs - counted));
    if (!readOnce) {
      readOnce = true;
      // The next turn of the loop reads the sockets before running this.
      return arm(0);
    }
    onExpired(report);
  }
  arm(Math.min(DEADLINE_STEP_MS, timeoutMs));
  return () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
}
