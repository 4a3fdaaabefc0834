import type pg from 'pg';
import type { Logger } from '../../ports/logger.js';
import type { Timers } from '../../ports/timers.js';
import type { BackoffLimits } from '../../retry/backoff.js';
import { CHANGES_CHANNEL } from '../db/dialect/postgres-choices.js';
import { PgNotificationListener } from './notification-listener.js';

export interface ChangeListenerHandlers {
  /** A committed statement appended changes to the network's log, up to `sequence`. */
  onChange(networkId: number, sequence: number): void;
  /** Listening (again): notifications sent while it was not may be lost. */
  onListening(): void;
}

/** The change log trigger's payload: `<network id>:<newest sequence>`. */
const PAYLOAD = /^(\d+):(\d+)$/;

/**
 * The change log's notifications, read on a listener of their own that reconnects after a growing
 * wait and says so, so the caller reads what it may have missed.
 */
export class PostgresChangeListener {
  private readonly listener: PgNotificationListener;

  constructor(connect: () => pg.Client, timers: Timers, logger: Logger, backoff: BackoffLimits) {
    this.listener = new PgNotificationListener(CHANGES_CHANNEL, connect, timers, logger, backoff, 'change listener');
  }

  /** Resolves once listening the first time; rejects when the first connection fails (the service cannot start). */
  start(handlers: ChangeListenerHandlers): Promise<void> {
    return this.listener.start({
      onNotification(payload) {
        const match = PAYLOAD.exec(payload);
        if (match) handlers.onChange(Number(match[1]), Number(match[2]));
      },
      onListening: () => handlers.onListening(),
    });
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}
