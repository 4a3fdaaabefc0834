import { describe, expect, it } from 'vitest';
import {
  DEADLINE_STEP_MS,
  type DeadlineLoopReport,
  LOOP_LATE_MS,
  startLoopAwareDeadline,
} from '../../plugin/enforcement/loop-aware-deadline.js';
import { FakeTime } from '../support/fake-time.js';

function deadline(timeoutMs = 300) {
  const time = new FakeTime();
  const expiredAt: number[] = [];
  const reports: DeadlineLoopReport[] = [];
  const start = time.now();
  const cancel = startLoopAwareDeadline(time, time, timeoutMs, (report) => {
    expiredAt.push(time.now() - start);
    reports.push(report);
  });
  return { time, expiredAt, reports, cancel };
}

/** Runs the loop in turns of `turnMs` (each one held for its whole length) until `untilMs` after the start. */
async function busyLoop(time: FakeTime, turnMs: number, untilMs: number, start: number) {
  for (let turn = 0; turn < 10_000 && time.now() - start < untilMs; turn += 1) {
    time.jump(turnMs);
    await time.advance(0);
  }
}

describe('a deadline counted in time the event loop was free', () => {
  it('expires after timeoutMs on a free loop, once the loop has read its sockets one more turn', async () => {
    const { time, expiredAt, reports } = deadline(300);
    await time.advance(299);
    expect(expiredAt).toEqual([]);
    await time.advance(1);
    expect(expiredAt).toEqual([300]);
    expect(reports).toEqual([{ heldMs: 0, longestHoldMs: 0 }]);
    expect(time.pendingCount).toBe(0);
  });

  it('does not count a stall of the loop: the step that fired late counts only its own length', async () => {
    const { time, expiredAt, reports } = deadline(300);
    await time.advance(100);
    // The loop is held for 2 s (chunks sent to joining players).
    time.jump(2000);
    await time.advance(0);
    expect(expiredAt).toEqual([]);
    // 100 ms counted before the stall, one step during it: 175 ms are left.
    await time.advance(300 - 100 - DEADLINE_STEP_MS - 1);
    expect(expiredAt).toEqual([]);
    await time.advance(1);
    expect(expiredAt).toEqual([2100 + 300 - 100 - DEADLINE_STEP_MS]);
    expect(reports[0]!.heldMs).toBe(2000 - DEADLINE_STEP_MS);
    expect(reports[0]!.longestHoldMs).toBe(2000 - DEADLINE_STEP_MS);
  });

  it('lengthens as much as a busy loop of back-to-back turns slows an answer', async () => {
    // Turns of 40 ms: every step fires 15 ms late, so 300 ms take twelve steps of 40 ms.
    const { time, expiredAt, reports } = deadline(300);
    const start = time.now();
    await busyLoop(time, 40, 440, start);
    expect(expiredAt).toEqual([]);
    await busyLoop(time, 40, 480, start);
    expect(expiredAt).toEqual([480]);
    expect(reports[0]!.heldMs).toBe(12 * (40 - DEADLINE_STEP_MS));
    expect(reports[0]!.longestHoldMs).toBe(40 - DEADLINE_STEP_MS);
  });

  it('counts a step fired only a little late (timer jitter) in full', async () => {
    const { time, expiredAt, reports } = deadline(100);
    for (let step = 0; step < 3; step += 1) {
      time.jump(DEADLINE_STEP_MS + LOOP_LATE_MS);
      await time.advance(0);
    }
    // Three steps of 30 ms counted as 30 each; the last step, armed for the 10 ms left, fires 5 ms late.
    expect(expiredAt).toEqual([]);
    time.jump(10 + LOOP_LATE_MS);
    await time.advance(0);
    expect(expiredAt).toEqual([105]);
    expect(reports[0]).toEqual({ heldMs: 0, longestHoldMs: 0 });
  });

  it('fires nothing once cancelled', async () => {
    const { time, expiredAt, cancel } = deadline(300);
    cancel();
    await time.advance(10_000);
    expect(expiredAt).toEqual([]);
    expect(time.pendingCount).toBe(0);
  });
});
