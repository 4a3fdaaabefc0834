/**
 * One unit of a connection's stream work (a catch-up page, a snapshot piece); asks again for more.
 * A step that reads its store returns the promise; the turn waits for it before the next step.
 */
export type StreamStep = () => void | Promise<void>;

/** Where a connection asks for its next step; the queue decides when it runs. */
export interface StreamWork {
  /** Runs `step` in a later turn, once however often it is asked for before then. */
  request(step: StreamStep): void;
  /** Forgets a step asked for (the connection closed). */
  cancel(step: StreamStep): void;
}

export interface StreamWorkQueueOptions {
  /** A turn stops taking steps once it has run this long. */
  sliceMs: number;
  /** Monotonic time in ms. @default performance.now */
  now?: () => number;
  /** Runs a turn after the event loop's pending I/O. @default setImmediate */
  schedule?: (turn: () => void) => void;
  /**
   * Longest a turn waits for one step's promise; past it the turn goes on and the step finishes on
   * its own (a slow query holds up that connection, not every other). @default 1000
   */
  maxStepWaitMs?: number;
  /** Calls `done` after `ms`; returns what cancels it. @default an unref'd setTimeout */
  startTimer?: (done: () => void, ms: number) => () => void;
  /** A step threw (or its promise failed); the others still run. */
  onStepError(error: unknown): void;
}

const DEFAULT_MAX_STEP_WAIT_MS = 1000;

function startUnrefTimer(done: () => void, ms: number): () => void {
  const timer = setTimeout(done, ms);
  timer.unref();
  return () => clearTimeout(timer);
}

/**
 * Runs every connection's stream work in turns of at most `sliceMs`, in the order it was asked
 * for, yielding to the event loop between turns: hundreds of servers catching up at once take
 * turns with each other and with the HTTP requests (a login check waits one turn at most), and
 * none is starved. Steps run one at a time: a step's work after its reads counts in its turn
 * (a promise the store settles at once would otherwise run every step's rest after the turn, all
 * together), and few pages are in memory at once. A step whose reads take longer than
 * `maxStepWaitMs` is left to finish on its own while the others go on.
 */
export class StreamWorkQueue implements StreamWork {
  private readonly waiting = new Set<StreamStep>();
  private isScheduled = false;
  private readonly now: () => number;
  private readonly schedule: (turn: () => void) => void;
  private readonly maxStepWaitMs: number;
  private readonly startTimer: (done: () => void, ms: number) => () => void;

  constructor(private readonly options: StreamWorkQueueOptions) {
    this.now = options.now ?? (() => performance.now());
    this.schedule = options.schedule ?? ((turn) => setImmediate(turn));
    this.maxStepWaitMs = options.maxStepWaitMs ?? DEFAULT_MAX_STEP_WAIT_MS;
    this.startTimer = options.startTimer ?? startUnrefTimer;
  }

  /** Steps waiting for a turn. */
  get size(): number {
    return this.waiting.size;
  }

  request(step: StreamStep): void {
    this.waiting.add(step);
    this.arm();
  }

  cancel(step: StreamStep): void {
    this.waiting.delete(step);
  }

  private arm(): void {
    if (this.isScheduled || this.waiting.size === 0) return;
    this.isScheduled = true;
    this.schedule(() => void this.runTurn());
  }

  private async runTurn(): Promise<void> {
    const startedAt = this.now();
    // Bounded: at most the steps waiting when the turn began; one asked for again waits for the next turn.
    const turn = [...this.waiting];
    for (const step of turn) {
      if (this.now() - startedAt >= this.options.sliceMs) break;
      if (!this.waiting.delete(step)) continue;
      await this.take(step);
    }
    this.isScheduled = false;
    this.arm();
  }

  private async take(step: StreamStep): Promise<void> {
    let result: void | Promise<void>;
    try {
      result = step();
    } catch (error) {
      this.options.onStepError(error);
      return;
    }
    if (!(result instanceof Promise)) return;
    const settled = result.catch((error: unknown) => this.options.onStepError(error));
    let cancel: (() => void) | undefined;
    const outwaited = new Promise<void>((resolve) => {
      cancel = this.startTimer(resolve, this.maxStepWaitMs);
    });
    await Promise.race([settled, outwaited]);
    cancel?.();
  }
}
