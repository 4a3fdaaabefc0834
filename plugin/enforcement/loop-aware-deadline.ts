import type { Clock } from '../../src/ports/clock.js';
import type { TimerHandle, Timers } from '../../src/ports/timers.js';

/** A timer this much later than due means the event loop was held: nothing could be read meanwhile. */
export const LOOP_STALL_MS = 20;

/**
 * Calls `onExpired` once `timeoutMs` have passed during which this process could read an answer.
 * A game server's event loop is held for hundreds of milliseconds at a time while it sends chunks
 * to joining players (more on a busy machine); an answer that arrived meanwhile waits unread in
 * its socket, and Node runs due timers before reading sockets. So a timer that fires late by more
 * than {@link LOOP_STALL_MS} is armed again (for the time it was late, at most `timeoutMs`), and
 * one that fires on time still lets the loop read its sockets once before expiring. The wait in
 * free time stays `timeoutMs`; only the server's own stalls lengthen it. Returns a cancel function.
 */
export function startLoopAwareDeadline(
  timers: Timers,
  clock: Clock,
  timeoutMs: number,
  onExpired: () => void,
): () => void {
  let handle: TimerHandle | undefined;
  let dueAt = 0;
  let readOnce = false;
  const arm = (delayMs: number) => {
    dueAt = clock.now() + delayMs;
    handle = timers.setTimeout(fire, delayMs);
  };
  function fire() {
    handle = undefined;
    const lateMs = clock.now() - dueAt;
    if (lateMs > LOOP_STALL_MS) return arm(Math.min(lateMs, timeoutMs));
    if (!readOnce) {
      readOnce = true;
      // The next turn of the loop reads the sockets before running this.
      return arm(0);
    }
    onExpired();
  }
  arm(timeoutMs);
  return () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
}
