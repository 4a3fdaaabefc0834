import type { Db } from '../../db/open-db.js';

/** A browser that logged in to an account before: its device cookie holds the token whose hash is kept. */
export interface PanelDevice {
  accountId: number;
  createdAt: number;
  expiresAt: number;
}

/** The statements of {@link PanelDeviceStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PANEL_DEVICE_SQL = {
  insert: `INSERT INTO service_panel_devices (token_hash, account_id, created_at, expires_at)
       VALUES (@tokenHash, @accountId, @createdAt, @expiresAt)`,
  byHash: `SELECT account_id AS accountId, created_at AS createdAt, expires_at AS expiresAt
       FROM service_panel_devices WHERE token_hash = ? AND expires_at > ?`,
  // The account's devices but its newest `keep`.
  forgetOlder: `DELETE FROM service_panel_devices WHERE account_id = @accountId AND token_hash NOT IN
       (SELECT token_hash FROM service_panel_devices WHERE account_id = @accountId ORDER BY created_at DESC LIMIT @keep)`,
  pruneExpired: `DELETE FROM service_panel_devices WHERE token_hash IN
       (SELECT token_hash FROM service_panel_devices WHERE expires_at <= ? LIMIT 500)`,
} as const;

/** Devices that logged in to an account, by the SHA-256 of their cookie's token (the token is only in the cookie). */
export class PanelDeviceStore {
  private readonly insertStatement;
  private readonly byHash;
  private readonly forgetStatement;
  private readonly pruneStatement;

  constructor(db: Db) {
    this.insertStatement = db.prepare<PanelDevice & { tokenHash: Buffer }>(PANEL_DEVICE_SQL.insert);
    this.byHash = db.prepare<[Buffer, number], PanelDevice>(PANEL_DEVICE_SQL.byHash);
    this.forgetStatement = db.prepare<{ accountId: number; keep: number }>(PANEL_DEVICE_SQL.forgetOlder);
    this.pruneStatement = db.prepare<[number]>(PANEL_DEVICE_SQL.pruneExpired);
  }

  remember(tokenHash: Buffer, device: PanelDevice): void {
    this.insertStatement.run({ tokenHash, ...device });
  }

  /** The device, unless it expired by `nowMs`. */
  find(tokenHash: Buffer, nowMs: number): PanelDevice | undefined {
    return this.byHash.get(tokenHash, nowMs);
  }

  /** Forgets the account's devices but the newest `keep`. */
  forgetOlder(accountId: number, keep: number): void {
    this.forgetStatement.run({ accountId, keep });
  }

  /** Deletes up to 500 expired devices; the number deleted. */
  pruneExpired(nowMs: number): number {
    return this.pruneStatement.run(nowMs).changes;
  }
}
