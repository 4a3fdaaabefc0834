import { randomBytes } from 'node:crypto';
import type { Logger } from '../../ports/logger.js';
import {
  decodeStaffChange,
  encodeStaffChange,
  LocalStaffSignals,
  type StaffChange,
  type StaffSignals,
} from '../staff-signals.js';
import type { PgNotificationListener } from './notification-listener.js';
import { type PgDb, pgStatements } from './pg-db.js';

/** The channel staff changes travel on between instances: payload `<instance> <change>`. */
export const STAFF_CHANNEL = 'bailiff_staff';

const PG_STAFF_SIGNAL_SQL = pgStatements('staffSignals', {
  notify: `SELECT pg_notify('${STAFF_CHANNEL}', $1)`,
});

/**
 * Staff changes on several instances: told here at once, and to the others through PostgreSQL's
 * NOTIFY (each instance ignores its own). A listener that reconnected may have missed some, so
 * it then asks every live feed to check itself again.
 */
export class PgStaffSignals implements StaffSignals {
  private readonly local = new LocalStaffSignals();
  private readonly instanceId = randomBytes(6).toString('hex');

  constructor(
    private readonly db: PgDb,
    private readonly listener: PgNotificationListener,
    private readonly logger: Logger,
  ) {}

  start(): Promise<void> {
    return this.listener.start({
      onNotification: (payload) => {
        const space = payload.indexOf(' ');
        if (space < 0 || payload.slice(0, space) === this.instanceId) return;
        const change = decodeStaffChange(payload.slice(space + 1));
        if (change) void this.local.send(change);
      },
      onListening: () => void this.local.send({ kind: 'everyone' }),
    });
  }

  async send(change: StaffChange): Promise<void> {
    await this.local.send(change);
    try {
      await this.db.run(PG_STAFF_SIGNAL_SQL.notify, [`${this.instanceId} ${encodeStaffChange(change)}`]);
    } catch (error) {
      // The change itself is stored; other instances' feeds find out at their next heartbeat.
      this.logger.warn('could not tell the other instances of a staff change', {
        change: encodeStaffChange(change),
        problem: error instanceof Error ? error.message : String(error),
      });
    }
  }

  listen(listener: (change: StaffChange) => void): () => void {
    return this.local.listen(listener);
  }

  close(): Promise<void> {
    return this.listener.close();
  }
}
