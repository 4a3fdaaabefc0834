import { errorMessage } from '../../errors/error-message.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { TimerHandle, Timers } from '../../ports/timers.js';
import type { ImportLease } from '../store/migration-rows.js';
import type { MigrationStorePort } from '../store/ports/migrations.js';

/** Why an import stopped before it ended: its lease went elsewhere (cancelled, taken over), or the service stops. */
export type HoldEnd = 'lost' | 'closing';

/**
 * This instance's hold on one import: renews the lease every third of its length while the import
 * runs, and aborts the import (its `signal`) once the lease is found gone or the service stops.
 */
export class ImportHold {
  private readonly abort = new AbortController();
  private timer: TimerHandle | undefined;
  /** Set once the import must stop; undefined while it may go on. */
  ended: HoldEnd | undefined;

  constructor(
    readonly uploadId: string,
    private readonly parts: {
      migrations: Pick<MigrationStorePort, 'renewLease'>;
      owner: string;
      leaseMs: number;
      clock: Clock;
      timers: Timers;
      logger: Logger;
    },
  ) {
    this.schedule();
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Who holds the lease: this hold. */
  get owner(): string {
    return this.parts.owner;
  }

  /** The lease as of now, for a write that extends it. */
  lease(): ImportLease {
    return { owner: this.parts.owner, expiresAtMs: this.parts.clock.now() + this.parts.leaseMs };
  }

  /** Stops the import: `lost` when another holds it now, `closing` when the service stops. */
  end(why: HoldEnd): void {
    this.ended ??= why;
    this.stopRenewing();
    this.abort.abort(new Error(why === 'lost' ? 'the import was cancelled or taken over' : 'the service stops'));
  }

  stopRenewing(): void {
    if (this.timer !== undefined) this.parts.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    this.timer = this.parts.timers.setTimeout(() => void this.renew(), Math.max(1, Math.floor(this.parts.leaseMs / 3)));
  }

  private async renew(): Promise<void> {
    this.timer = undefined;
    if (this.ended) return;
    try {
      if (!(await this.parts.migrations.renewLease(this.uploadId, this.lease()))) {
        this.end('lost');
        return;
      }
    } catch (error) {
      // The next batch's commit decides: it writes only while this instance still holds the lease.
      this.parts.logger.warn('migration import could not renew its lease', {
        uploadId: this.uploadId,
        problem: errorMessage(error),
      });
    }
    if (!this.ended) this.schedule();
  }
}
