import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/** One running transaction; `open` turns false once it committed or rolled back. */
export interface TransactionTicket {
  open: boolean;
}

type Waiter = { kind: 'call'; run: () => void } | { kind: 'transaction'; ticket: TransactionTicket; start: () => void };

/**
 * One lock per database: a transaction holds it from BEGIN to COMMIT; a store call made outside
 * the transaction meanwhile waits, in arrival order with the transactions that wait too. When
 * the lock is free a call runs at once, so the hot path pays nothing beyond a flag check.
 */
export class StorageLock {
  private holder: TransactionTicket | undefined;
  private readonly waiting: Waiter[] = [];
  private readonly current = new AsyncLocalStorage<TransactionTicket>();
  /** Told how long each call or transaction waited for the lock (0 when it was free); set for the metrics. */
  onWait: ((waitMs: number) => void) | undefined;

  /** Whether a transaction holds the lock now. */
  get isHeld(): boolean {
    return this.holder !== undefined;
  }

  /** Calls and transactions waiting for the lock now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  /**
   * Whether this code runs inside the open transaction (its async continuations included). A timer
   * set inside counts while the transaction is still open; the service's transactions only await
   * store calls, so they end before any timer fires.
   */
  insideTransaction(): boolean {
    const ticket = this.current.getStore();
    return ticket?.open === true && ticket === this.holder;
  }

  /** Runs `call` once the lock is free (at once when it is). */
  whenFree<T>(call: () => T): Promise<T> {
    if (this.holder === undefined) {
      this.onWait?.(0);
      return settle(call);
    }
    if (this.insideTransaction()) {
      return Promise.reject(
        new Error(
          'a store of storage.stores was called inside storage.transaction(work): inside the work use only the stores passed to it',
        ),
      );
    }
    const queuedAt = this.onWait ? performance.now() : 0;
    return new Promise<T>((resolve) => {
      this.waiting.push({
        kind: 'call',
        run: () => {
          this.onWait?.(performance.now() - queuedAt);
          resolve(settle(call));
        },
      });
    });
  }

  /** Takes the lock, runs `work` (its continuations know they are inside) and frees the lock after. */
  async holding<T>(work: () => Promise<T>): Promise<T> {
    if (this.insideTransaction()) {
      throw new Error(
        'storage.transaction was called inside the work of another transaction; transactions do not nest: use the stores passed to the outer work',
      );
    }
    const ticket: TransactionTicket = { open: true };
    if (this.holder === undefined) {
      this.holder = ticket;
      this.onWait?.(0);
    } else {
      const queuedAt = this.onWait ? performance.now() : 0;
      await new Promise<void>((start) => this.waiting.push({ kind: 'transaction', ticket, start }));
      this.onWait?.(performance.now() - queuedAt);
    }
    try {
      return await this.current.run(ticket, work);
    } finally {
      ticket.open = false;
      this.release();
    }
  }

  // Calls that waited run now, in order, until a waiting transaction takes the lock.
  private release(): void {
    this.holder = undefined;
    while (this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      if (next.kind === 'call') {
        next.run();
        continue;
      }
      this.holder = next.ticket;
      next.start();
      return;
    }
  }
}

function settle<T>(call: () => T): Promise<T> {
  try {
    return Promise.resolve(call());
  } catch (error) {
    return Promise.reject(error);
  }
}
