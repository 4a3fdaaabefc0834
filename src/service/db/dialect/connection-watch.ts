import type { StorageLoad } from '../../store/ports/storage.js';

/**
 * What a database's driver tells the metrics: how busy its connections are now, and how long each
 * statement or transaction waited for one.
 */
export class ConnectionWatch {
  /** Set by the driver once it exists. */
  load: () => StorageLoad = () => ({ inUse: 0, idle: 0, waiting: 0 });
  private onWait: ((waitMs: number) => void) | undefined;

  /** From now on, tells `observe` each wait in ms. */
  observeWaits(observe: (waitMs: number) => void): void {
    this.onWait = observe;
  }

  /** The driver lent a connection asked for at `askedAt` (performance.now()). */
  waited(askedAt: number): void {
    this.onWait?.(performance.now() - askedAt);
  }
}
