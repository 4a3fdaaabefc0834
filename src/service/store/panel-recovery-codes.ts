import type { Db } from '../../db/open-db.js';

/** The statements of {@link PanelRecoveryCodeStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PANEL_RECOVERY_CODE_SQL = {
  insert: `INSERT INTO service_panel_recovery_codes (account_id, code_hash, created_at)
       VALUES (@accountId, @codeHash, @nowMs)`,
  removeOfAccount: 'DELETE FROM service_panel_recovery_codes WHERE account_id = ?',
  // One statement decides, so a code is accepted once even when two logins race with it.
  use: `UPDATE service_panel_recovery_codes SET used_at = @nowMs
       WHERE account_id = @accountId AND code_hash = @codeHash AND used_at IS NULL`,
  countUnused: 'SELECT count(*) AS count FROM service_panel_recovery_codes WHERE account_id = ? AND used_at IS NULL',
} as const;

/** An account's two-factor recovery codes, each kept as its SHA-256 only and accepted once. */
export class PanelRecoveryCodeStore {
  private readonly insertStatement;
  private readonly removeStatement;
  private readonly useStatement;
  private readonly countStatement;
  private readonly replaceAll;

  constructor(db: Db) {
    this.insertStatement = db.prepare<{ accountId: number; codeHash: Buffer; nowMs: number }>(
      PANEL_RECOVERY_CODE_SQL.insert,
    );
    this.removeStatement = db.prepare<[number]>(PANEL_RECOVERY_CODE_SQL.removeOfAccount);
    this.useStatement = db.prepare<{ accountId: number; codeHash: Buffer; nowMs: number }>(PANEL_RECOVERY_CODE_SQL.use);
    this.countStatement = db.prepare<[number], { count: number }>(PANEL_RECOVERY_CODE_SQL.countUnused);
    this.replaceAll = db.transaction((accountId: number, codeHashes: readonly Buffer[], nowMs: number) => {
      this.removeStatement.run(accountId);
      for (const codeHash of codeHashes) this.insertStatement.run({ accountId, codeHash, nowMs });
    });
  }

  /** The account's codes become these, the old ones (used or not) gone. */
  replace(accountId: number, codeHashes: readonly Buffer[], nowMs: number): void {
    this.replaceAll(accountId, codeHashes, nowMs);
  }

  /** Spends the code: true once, false when it is not the account's or was used. */
  use(accountId: number, codeHash: Buffer, nowMs: number): boolean {
    return this.useStatement.run({ accountId, codeHash, nowMs }).changes === 1;
  }

  countUnused(accountId: number): number {
    return this.countStatement.get(accountId)?.count ?? 0;
  }

  removeAllOf(accountId: number): void {
    this.removeStatement.run(accountId);
  }
}
