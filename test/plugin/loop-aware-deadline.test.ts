import { describe, expect, it } from 'vitest';
import { LOOP_STALL_MS, startLoopAwareDeadline } from '../../plugin/enforcement/loop-aware-deadline.js';
import { FakeTime } from '../support/fake-time.js';

function deadline(timeoutMs = 300) {
  const time = new FakeTime();
  const expiredAt: number[] = [];
  const start = time.now();
  const cancel = startLoopAwareDeadline(time, time, timeoutMs, () => expiredAt.push(time.now() - start));
  return { time, expiredAt, cancel };
}

describe('a deadline counted in time the event loop was free', () => {
  it('expires after timeoutMs on a free loop, once the loop has read its sockets one more turn', async () => {
    const { time, expiredAt } = deadline(300);
    await time.advance(299);
    expect(expiredAt).toEqual([]);
    await time.advance(1);
    expect(expiredAt).toEqual([300]);
    expect(time.pendingCount).toBe(0);
  });

  it('does not count a stall of the loop: a timer fired late is armed again for the time it lost', async () => {
    const { time, expiredAt } = deadline(300);
    await time.advance(100);
    // The loop is held for 2 s (chunks sent to joining players): the timer fires 1.8 s late.
    time.jump(2000);
    await time.advance(0);
    expect(expiredAt).toEqual([]);
    expect(time.delays()).toEqual([300]);
    await time.advance(300);
    expect(expiredAt).toEqual([2400]);
  });

  it('arms again for at most timeoutMs, and only for a lateness above the stall threshold', async () => {
    const { time, expiredAt } = deadline(300);
    time.jump(300 + LOOP_STALL_MS);
    await time.advance(0);
    expect(expiredAt).toEqual([320]);

    const long = deadline(300);
    long.time.jump(60_000);
    await long.time.advance(0);
    expect(long.time.delays()).toEqual([300]);
  });

  it('fires nothing once cancelled', async () => {
    const { time, expiredAt, cancel } = deadline(300);
    cancel();
    await time.advance(10_000);
    expect(expiredAt).toEqual([]);
    expect(time.pendingCount).toBe(0);
  });
});
