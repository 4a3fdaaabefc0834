import { describe, expect, it } from 'vitest';
import { StreamWorkQueue } from '../../src/service/stream/stream-work-queue.js';

/** A queue on a clock the steps move forward, whose turns run only when the test says. */
function harness(sliceMs: number) {
  let nowMs = 0;
  const turns: (() => void)[] = [];
  const errors: unknown[] = [];
  const queue = new StreamWorkQueue({
    sliceMs,
    now: () => nowMs,
    schedule: (turn) => turns.push(turn),
    onStepError: (error) => errors.push(error),
  });
  const ran: string[] = [];
  /** A step that takes `costMs` and asks for itself again `again` times. */
  const step = (name: string, costMs: number, again = 0) => {
    let left = again;
    const run = () => {
      ran.push(name);
      nowMs += costMs;
      if (left-- > 0) queue.request(run);
    };
    return run;
  };
  /** Runs the next turn and lets its awaits settle (every microtask runs before an immediate). */
  const turn = async () => {
    const next = turns.shift();
    next?.();
    await new Promise((resolve) => setImmediate(resolve));
    return next !== undefined;
  };
  return { queue, step, ran, turns, turn, errors };
}

describe('the stream work queue', () => {
  it('runs nothing until its turn, and a step asked for twice once', async () => {
    const h = harness(10);
    const a = h.step('a', 1);
    h.queue.request(a);
    h.queue.request(a);
    expect(h.ran).toEqual([]);
    expect(h.turns).toHaveLength(1);
    await h.turn();
    expect(h.ran).toEqual(['a']);
    expect(h.turns).toHaveLength(0);
  });

  it('ends a turn once it has run sliceMs and goes on in the next, in the order asked', async () => {
    const h = harness(4);
    for (const name of ['a', 'b', 'c', 'd', 'e']) h.queue.request(h.step(name, 2));
    await h.turn();
    expect(h.ran).toEqual(['a', 'b']);
    await h.turn();
    expect(h.ran).toEqual(['a', 'b', 'c', 'd']);
    await h.turn();
    expect(h.ran).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(await h.turn()).toBe(false);
  });

  it('puts a step that asks again behind the others, and runs it in a later turn', async () => {
    const h = harness(100);
    h.queue.request(h.step('a', 1, 2));
    h.queue.request(h.step('b', 1));
    await h.turn();
    expect(h.ran).toEqual(['a', 'b']);
    await h.turn();
    await h.turn();
    expect(h.ran).toEqual(['a', 'b', 'a', 'a']);
    expect(await h.turn()).toBe(false);
  });

  it('drops a cancelled step and keeps running the others when one throws', async () => {
    const h = harness(100);
    const cancelled = h.step('cancelled', 1);
    h.queue.request(() => {
      throw new Error('broken step');
    });
    h.queue.request(cancelled);
    h.queue.request(h.step('b', 1));
    h.queue.cancel(cancelled);
    await h.turn();
    expect(h.ran).toEqual(['b']);
    expect(h.errors.map((error) => (error as Error).message)).toEqual(['broken step']);
    expect(h.queue.size).toBe(0);
  });
});

describe('the stream work queue with steps that read their store', () => {
  it("counts a step's work after its read in its turn, and runs the next step after it", async () => {
    let nowMs = 0;
    const turns: (() => void)[] = [];
    const errors: unknown[] = [];
    const queue = new StreamWorkQueue({
      sliceMs: 4,
      now: () => nowMs,
      schedule: (turn) => turns.push(turn),
      onStepError: (error) => errors.push(error),
    });
    const ran: string[] = [];
    const readingStep =
      (name: string, fails = false) =>
      async () => {
        ran.push(`${name} reads`);
        await Promise.resolve();
        if (fails) throw new Error(`${name} failed`);
        ran.push(`${name} sends`);
        nowMs += 3;
      };
    for (const name of ['a', 'b', 'c']) queue.request(readingStep(name, name === 'a'));
    turns.shift()!();
    // Lets the turn's awaits settle (every microtask runs before an immediate).
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['a reads', 'b reads', 'b sends', 'c reads', 'c sends']);
    expect(errors.map((error) => (error as Error).message)).toEqual(['a failed']);
    expect(turns).toHaveLength(0);
  });

  it('ends the turn once a read step has used up the slice, and goes on in the next', async () => {
    let nowMs = 0;
    const turns: (() => void)[] = [];
    const queue = new StreamWorkQueue({
      sliceMs: 4,
      now: () => nowMs,
      schedule: (turn) => turns.push(turn),
      onStepError: () => {},
    });
    const ran: string[] = [];
    for (const name of ['a', 'b']) {
      queue.request(async () => {
        await Promise.resolve();
        ran.push(name);
        nowMs += 5;
      });
    }
    turns.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['a']);
    expect(turns).toHaveLength(1);
    turns.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['a', 'b']);
  });

  it('goes on without a step that takes longer than maxStepWaitMs, which still finishes on its own', async () => {
    const turns: (() => void)[] = [];
    const timers: (() => void)[] = [];
    const queue = new StreamWorkQueue({
      sliceMs: 100,
      now: () => 0,
      schedule: (turn) => turns.push(turn),
      maxStepWaitMs: 1000,
      startTimer: (done) => {
        timers.push(done);
        return () => {};
      },
      onStepError: () => {},
    });
    const ran: string[] = [];
    let finishSlow!: () => void;
    queue.request(async () => {
      ran.push('slow reads');
      await new Promise<void>((resolve) => {
        finishSlow = resolve;
      });
      ran.push('slow sends');
    });
    queue.request(() => {
      ran.push('quick');
    });
    turns.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['slow reads']);
    // The slow step's time is up: the turn goes on.
    timers.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['slow reads', 'quick']);
    finishSlow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['slow reads', 'quick', 'slow sends']);
  });
});
