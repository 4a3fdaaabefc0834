import type pg from 'pg';
import type { Logger } from '../../ports/logger.js';
import type { TimerHandle, Timers } from '../../ports/timers.js';
import { type BackoffLimits, backoffCeilingMs } from '../../retry/backoff.js';

/** The channel the change log's trigger notifies: payload `<network id>:<newest sequence>`. */
export const CHANGES_CHANNEL = 'bailiff_changes';

export interface ChangeListenerHandlers {
  /** A committed statement appended changes to the network's log, up to `sequence`. */
  onChange(networkId: number, sequence: number): void;
  /** Listening (again): notifications sent while it was not may be lost. */
  onListening(): void;
}

const PAYLOAD = /^(\d+):(\d+)$/;

/**
 * LISTEN on a connection of its own, for the life of the service. When the connection drops it
 * connects again after a growing wait (reset once listening), and says so, so the caller reads
 * what it may have missed.
 */
export class PostgresChangeListener {
  private client: pg.Client | undefined;
  private retryTimer: TimerHandle | undefined;
  private failures = 0;
  private isClosed = false;

  constructor(
    private readonly connect: () => pg.Client,
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly backoff: BackoffLimits,
  ) {}

  /** Resolves once listening the first time; rejects when the first connection fails (the service cannot start). */
  async start(handlers: ChangeListenerHandlers): Promise<void> {
    await this.listen(handlers);
  }

  async close(): Promise<void> {
    this.isClosed = true;
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async listen(handlers: ChangeListenerHandlers): Promise<void> {
    const client = this.connect();
    let isLost = false;
    const lost = (error?: Error) => {
      if (isLost || this.isClosed) return;
      isLost = true;
      this.client = undefined;
      this.logger.warn('change listener lost its PostgreSQL connection; reconnecting', {
        problem: error?.message ?? 'connection ended',
      });
      client.end().catch(() => {});
      this.retry(handlers);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      const match = message.channel === CHANGES_CHANNEL ? PAYLOAD.exec(message.payload ?? '') : null;
      if (match) handlers.onChange(Number(match[1]), Number(match[2]));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      isLost = true;
      client.end().catch(() => {});
      throw error;
    }
    if (this.isClosed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.failures = 0;
    handlers.onListening();
  }

  private retry(handlers: ChangeListenerHandlers): void {
    if (this.isClosed) return;
    this.failures += 1;
    this.retryTimer = this.timers.setTimeout(
      () => {
        this.retryTimer = undefined;
        this.listen(handlers).catch((error: unknown) => {
          this.logger.warn('change listener could not reconnect to PostgreSQL; retrying', {
            problem: error instanceof Error ? error.message : String(error),
            failures: this.failures,
          });
          this.retry(handlers);
        });
      },
      backoffCeilingMs(this.failures, this.backoff),
    );
  }
}
