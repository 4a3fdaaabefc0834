import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { PanelDevice, PanelDeviceStorePort } from './ports/panel-devices.js';

/** The statements of {@link PanelDeviceStore}; the query-plan tests check each one's plan. */
export const PANEL_DEVICE_STATEMENTS = {
  insert: prepare<PanelDevice & { tokenHash: Buffer }, never>('panelDevices.insert', ({ db }, p) =>
    db.insertInto('service_panel_devices').values({
      token_hash: p.tokenHash,
      account_id: p.accountId,
      created_at: p.createdAt,
      expires_at: p.expiresAt,
    }),
  ),
  byHash: prepare<{ tokenHash: Buffer; nowMs: number }, PanelDevice>('panelDevices.byHash', ({ db }, p) =>
    db
      .selectFrom('service_panel_devices')
      .select(['account_id as accountId', 'created_at as createdAt', 'expires_at as expiresAt'])
      .where('token_hash', '=', p.tokenHash)
      .where('expires_at', '>', p.nowMs),
  ),
  // The account's devices but its newest `keep`.
  forgetOlder: prepare<{ accountId: number; keep: number }, never>('panelDevices.forgetOlder', ({ db }, p) =>
    db
      .deleteFrom('service_panel_devices')
      .where('account_id', '=', p.accountId)
      .where('token_hash', 'not in', (eb) =>
        eb
          .selectFrom('service_panel_devices')
          .select('token_hash')
          .where('account_id', '=', p.accountId)
          .orderBy('created_at', 'desc')
          .limit(p.keep),
      ),
  ),
  pruneExpired: prepare<{ nowMs: number }, never>('panelDevices.pruneExpired', ({ db }, p) =>
    db
      .deleteFrom('service_panel_devices')
      .where('token_hash', 'in', (eb) =>
        eb
          .selectFrom('service_panel_devices')
          .select('token_hash')
          .where('expires_at', '<=', p.nowMs)
          .limit(raw.lit(500)),
      ),
  ),
};

const q = PANEL_DEVICE_STATEMENTS;

/** Devices that logged in to an account, by the SHA-256 of their cookie's token (the token is only in the cookie). */
export class PanelDeviceStore implements PanelDeviceStorePort {
  constructor(private readonly sql: SqlContext) {}

  async remember(tokenHash: Buffer, device: PanelDevice): Promise<void> {
    await q.insert.run(this.sql, { tokenHash, ...device });
  }

  /** The device, unless it expired by `nowMs`. */
  find(tokenHash: Buffer, nowMs: number): Promise<PanelDevice | undefined> {
    return q.byHash.first(this.sql, { tokenHash, nowMs });
  }

  /** Forgets the account's devices but the newest `keep`. */
  async forgetOlder(accountId: number, keep: number): Promise<void> {
    await q.forgetOlder.run(this.sql, { accountId, keep });
  }

  /** Deletes up to 500 expired devices; the number deleted. */
  pruneExpired(nowMs: number): Promise<number> {
    return q.pruneExpired.run(this.sql, { nowMs });
  }
}
