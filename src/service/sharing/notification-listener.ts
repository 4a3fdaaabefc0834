import type pg from 'pg';
import type { Logger } from '../../ports/logger.js';
import type { TimerHandle, Timers } from '../../ports/timers.js';
import { type BackoffLimits, backoffCeilingMs } from '../../retry/backoff.js';

export interface NotificationHandlers {
  /** A notification on the channel, with its payload. */
  onNotification(payload: string): void;
  /** Listening (again): notifications sent while it was not may be lost. */
  onListening(): void;
}

/**
 * LISTEN on one channel, on a connection of its own, for the life of the service. When the
 * connection drops it connects again after a growing wait (reset once listening), and says so,
 * so the caller checks what it may have missed.
 */
export class PgNotificationListener {
  private client: pg.Client | undefined;
  private retryTimer: TimerHandle | undefined;
  private failures = 0;
  private isClosed = false;

  constructor(
    private readonly channel: string,
    private readonly connect: () => pg.Client,
    private readonly timers: Timers,
    private readonly logger: Logger,
    private readonly backoff: BackoffLimits,
    /** What the log lines call it. */
    private readonly label = 'notification listener',
  ) {
    if (!/^[a-z_]+$/.test(channel))
      throw new RangeError(`notification channel: lower-case letters only, received ${channel}`);
  }

  /** Resolves once listening the first time; rejects when the first connection fails. */
  start(handlers: NotificationHandlers): Promise<void> {
    return this.listen(handlers);
  }

  async close(): Promise<void> {
    this.isClosed = true;
    if (this.retryTimer !== undefined) this.timers.clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async listen(handlers: NotificationHandlers): Promise<void> {
    const client = this.connect();
    let isLost = false;
    const lost = (error?: Error) => {
      if (isLost || this.isClosed) return;
      isLost = true;
      this.client = undefined;
      this.logger.warn(`${this.label} lost its PostgreSQL connection; reconnecting`, {
        channel: this.channel,
        problem: error?.message ?? 'connection ended',
      });
      client.end().catch(() => {});
      this.retry(handlers);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === this.channel) handlers.onNotification(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
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

  private retry(handlers: NotificationHandlers): void {
    if (this.isClosed) return;
    this.failures += 1;
    this.retryTimer = this.timers.setTimeout(
      () => {
        this.retryTimer = undefined;
        this.listen(handlers).catch((error: unknown) => {
          this.logger.warn(`${this.label} could not reconnect to PostgreSQL; retrying`, {
            channel: this.channel,
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
