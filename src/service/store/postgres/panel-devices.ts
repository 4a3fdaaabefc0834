import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { PanelDevice } from '../panel-devices.js';

/** The statements of {@link PgPanelDeviceStore}. */
export const PG_PANEL_DEVICE_SQL = pgStatements('panelDevices', {
  insert: `INSERT INTO service_panel_devices (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
  byHash: `SELECT account_id AS "accountId", created_at AS "createdAt", expires_at AS "expiresAt"
    FROM service_panel_devices WHERE token_hash = $1 AND expires_at > $2`,
  // The account's devices but its newest `keep`.
  forgetOlder: `DELETE FROM service_panel_devices WHERE account_id = $1 AND token_hash NOT IN
    (SELECT token_hash FROM service_panel_devices WHERE account_id = $1 ORDER BY created_at DESC LIMIT $2)`,
  pruneExpired: `DELETE FROM service_panel_devices WHERE token_hash IN
    (SELECT token_hash FROM service_panel_devices WHERE expires_at <= $1 LIMIT 500)`,
});

/** Devices that logged in to an account on PostgreSQL, by the SHA-256 of their cookie's token. */
export class PgPanelDeviceStore {
  constructor(private readonly db: PgDb) {}

  async remember(tokenHash: Buffer, device: PanelDevice): Promise<void> {
    await this.db.run(PG_PANEL_DEVICE_SQL.insert, [tokenHash, device.accountId, device.createdAt, device.expiresAt]);
  }

  /** The device, unless it expired by `nowMs`. */
  find(tokenHash: Buffer, nowMs: number): Promise<PanelDevice | undefined> {
    return this.db.row(PG_PANEL_DEVICE_SQL.byHash, [tokenHash, nowMs]);
  }

  /** Forgets the account's devices but the newest `keep`. */
  async forgetOlder(accountId: number, keep: number): Promise<void> {
    await this.db.run(PG_PANEL_DEVICE_SQL.forgetOlder, [accountId, keep]);
  }

  /** Deletes up to 500 expired devices; the number deleted. */
  pruneExpired(nowMs: number): Promise<number> {
    return this.db.run(PG_PANEL_DEVICE_SQL.pruneExpired, [nowMs]);
  }
}
