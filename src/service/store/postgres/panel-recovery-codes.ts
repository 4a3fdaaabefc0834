import { type PgDb, pgStatements } from '../../sharing/pg-db.js';

/** The statements of {@link PgPanelRecoveryCodeStore}. */
export const PG_PANEL_RECOVERY_CODE_SQL = pgStatements('panelRecoveryCodes', {
  // One statement: the old codes go and the new ones come together.
  replace: `WITH old AS (DELETE FROM service_panel_recovery_codes WHERE account_id = $1)
    INSERT INTO service_panel_recovery_codes (account_id, code_hash, created_at)
    SELECT $1, code_hash, $3 FROM unnest($2::bytea[]) AS code_hash`,
  removeOfAccount: 'DELETE FROM service_panel_recovery_codes WHERE account_id = $1',
  // One statement decides, so a code is accepted once even when two logins race with it (on any instance).
  use: `UPDATE service_panel_recovery_codes SET used_at = $3
    WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL`,
  countUnused: `SELECT count(*)::int AS count FROM service_panel_recovery_codes
    WHERE account_id = $1 AND used_at IS NULL`,
});

/** An account's two-factor recovery codes on PostgreSQL, each kept as its SHA-256 only and accepted once. */
export class PgPanelRecoveryCodeStore {
  constructor(private readonly db: PgDb) {}

  /** The account's codes become these, the old ones (used or not) gone. */
  async replace(accountId: number, codeHashes: readonly Buffer[], nowMs: number): Promise<void> {
    await this.db.run(PG_PANEL_RECOVERY_CODE_SQL.replace, [accountId, codeHashes, nowMs]);
  }

  /** Spends the code: true once, false when it is not the account's or was used. */
  async use(accountId: number, codeHash: Buffer, nowMs: number): Promise<boolean> {
    return (await this.db.run(PG_PANEL_RECOVERY_CODE_SQL.use, [accountId, codeHash, nowMs])) === 1;
  }

  async countUnused(accountId: number): Promise<number> {
    return (await this.db.row<{ count: number }>(PG_PANEL_RECOVERY_CODE_SQL.countUnused, [accountId]))?.count ?? 0;
  }

  async removeAllOf(accountId: number): Promise<void> {
    await this.db.run(PG_PANEL_RECOVERY_CODE_SQL.removeOfAccount, [accountId]);
  }
}
