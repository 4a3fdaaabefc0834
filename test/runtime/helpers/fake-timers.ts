import { FakeTime, settle } from '../../support/fake-time.js';

/** Lets queued promise continuations run (no real waiting on time). */
export const flushMicrotasks = () => settle(1);

/** The test kit's fake time, starting at 0 as the runtime tests count from. */
export class FakeTimers extends FakeTime {
  constructor(start = 0) {
    super(start);
  }
}
