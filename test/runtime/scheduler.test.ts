import { describe, expect, it } from 'vitest';
import { createScheduler } from '../../src/runtime/scheduler.js';
import { FakeTimers, flushMicrotasks } from './helpers/fake-timers.js';
import { memoryLogger } from './helpers/memory-logger.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('scheduler (fake clock)', () => {
  it('runs a task once after its delay, and not when cancelled', async () => {
    const timers = new FakeTimers();
    const scheduler = createScheduler(timers, memoryLogger());
    const runs: number[] = [];
    scheduler.runLater(() => void runs.push(timers.now()), 500);
    const cancelled = scheduler.runLater(() => void runs.push(-1), 600);
    cancelled.cancel();
    await timers.advance(499);
    expect(runs).toEqual([]);
    await timers.advance(200);
    expect(runs).toEqual([500]);
    expect(scheduler.pendingCount()).toBe(0);
  });

  it('repeats at the period after the initial delay', async () => {
    const timers = new FakeTimers();
    const scheduler = createScheduler(timers, memoryLogger());
    const runs: number[] = [];
    scheduler.repeat(() => void runs.push(timers.now()), 1000, 100);
    await timers.advance(3200);
    expect(runs).toEqual([100, 1100, 2100, 3100]);
  });

  it('never overlaps runs: the next run is scheduled after the previous one finished', async () => {
    const timers = new FakeTimers();
    const scheduler = createScheduler(timers, memoryLogger());
    const started: number[] = [];
    let running = 0;
    let maxRunning = 0;
    const gates: ReturnType<typeof deferred>[] = [];
    scheduler.repeat(async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      started.push(timers.now());
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
      running--;
    }, 100);
    await timers.advance(1000);
    expect(started).toEqual([100]);
    gates[0]!.resolve();
    await flushMicrotasks();
    await timers.advance(99);
    expect(started).toEqual([100]);
    await timers.advance(1);
    expect(started).toEqual([100, 1100]);
    expect(maxRunning).toBe(1);
  });

  it('logs a throwing task and keeps repeating', async () => {
    const timers = new FakeTimers();
    const logger = memoryLogger();
    const scheduler = createScheduler(timers, logger);
    let runs = 0;
    scheduler.repeat(() => {
      runs++;
      throw new Error('task failed');
    }, 10);
    await timers.advance(30);
    expect(runs).toBe(3);
    expect(logger.lines.filter((l) => l.message === 'a scheduled task threw')).toHaveLength(3);
  });

  it('cancelAll stops every pending and repeating task', async () => {
    const timers = new FakeTimers();
    const scheduler = createScheduler(timers, memoryLogger());
    const runs: string[] = [];
    scheduler.runLater(() => void runs.push('later'), 50);
    scheduler.repeat(() => void runs.push('repeat'), 20);
    await timers.advance(20);
    scheduler.cancelAll();
    await timers.advance(1000);
    expect(runs).toEqual(['repeat']);
    expect(scheduler.pendingCount()).toBe(0);
    expect(timers.pendingCount).toBe(0);
  });

  it('refuses a negative delay with the option name', () => {
    const scheduler = createScheduler(new FakeTimers(), memoryLogger());
    expect(() => scheduler.runLater(() => {}, -1)).toThrow(
      'scheduler runLater delayMs: expected a finite number of ms >= 0, received -1',
    );
  });
});
