import type { ServiceStorage } from './store/ports/storage.js';
import type { ServiceStoresPorts } from './store/ports/stores.js';

/** A piece of work for one transaction: it may use only the stores it is given, and nothing else that lasts. */
export type TransactionWork<T> = (stores: ServiceStoresPorts) => Promise<T>;

interface Pending {
  work: TransactionWork<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface TransactionBatcherOptions {
  /** Works run by one transaction at most; a batch that fills up runs at once. @default 32 */
  maxBatch?: number;
  /** Runs the flush after the works of this turn of the event loop have arrived. @default setImmediate */
  schedule?: (flush: () => void) => void;
}

/** Told apart from a failure of the transaction itself (BEGIN, COMMIT, the connection). */
class WorkFailed {
  constructor(
    readonly index: number,
    readonly error: unknown,
  ) {}
}

/**
 * Runs the works handed to it within one turn of the event loop in one transaction, one after
 * another in the order they came, so a storm of small writes (the login check's) pays for one
 * BEGIN and COMMIT instead of one each. Each caller gets what its own work returned, as if it had
 * run alone after the works before it: when a work throws, the transaction is rolled back, that
 * caller gets its error, and the others run again without it. When the transaction itself fails,
 * every caller gets that error.
 *
 * A work may run more than once (after another work's failure), so it must have no effect but
 * through its stores, which the rollback undoes.
 */
export class TransactionBatcher {
  private pending: Pending[] = [];
  private isScheduled = false;
  private readonly maxBatch: number;
  private readonly schedule: (flush: () => void) => void;

  constructor(
    private readonly storage: ServiceStorage,
    options: TransactionBatcherOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 32;
    this.schedule = options.schedule ?? ((flush) => setImmediate(flush));
  }

  /** Runs `work` in a transaction shared with the other works of this turn; resolves with what it returned. */
  run<T>(work: TransactionWork<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.length >= this.maxBatch) {
        this.flush();
      } else if (!this.isScheduled) {
        this.isScheduled = true;
        this.schedule(() => {
          this.isScheduled = false;
          this.flush();
        });
      }
    });
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) void this.runBatch(batch);
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch;
      await this.storage.transaction(only!.work).then(only!.resolve, only!.reject);
      return;
    }
    let results: unknown[];
    try {
      results = await this.storage.transaction(async (stores) => {
        const done: unknown[] = [];
        for (const [index, { work }] of batch.entries()) {
          try {
            done.push(await work(stores));
          } catch (error) {
            throw new WorkFailed(index, error);
          }
        }
        return done;
      });
    } catch (failure) {
      if (!(failure instanceof WorkFailed)) {
        for (const { reject } of batch) reject(failure);
        return;
      }
      batch[failure.index]!.reject(failure.error);
      await this.runBatch(batch.filter((_, index) => index !== failure.index));
      return;
    }
    for (const [index, { resolve }] of batch.entries()) resolve(results[index]);
  }
}
