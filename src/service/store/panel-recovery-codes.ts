import { sql as raw } from 'kysely';
import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type { PanelRecoveryCodeStorePort } from './ports/panel-recovery-codes.js';

type Code = { accountId: number; codeHash: Buffer; nowMs: number };

/** The statements of {@link PanelRecoveryCodeStore}; the query-plan tests check each one's plan. */
export const PANEL_RECOVERY_CODE_STATEMENTS = {
  insert: prepare<Code, never>('panelRecoveryCodes.insert', ({ db }, p) =>
    db
      .insertInto('service_panel_recovery_codes')
      .values({ account_id: p.accountId, code_hash: p.codeHash, created_at: p.nowMs }),
  ),
  removeOfAccount: prepare<{ accountId: number }, never>('panelRecoveryCodes.removeOfAccount', ({ db }, p) =>
    db.deleteFrom('service_panel_recovery_codes').where('account_id', '=', p.accountId),
  ),
  // One statement decides, so a code is accepted once even when two logins race with it (on any instance).
  use: prepare<Code, never>('panelRecoveryCodes.use', ({ db }, p) =>
    db
      .updateTable('service_panel_recovery_codes')
      .set({ used_at: p.nowMs })
      .where('account_id', '=', p.accountId)
      .where('code_hash', '=', p.codeHash)
      .where('used_at', 'is', null),
  ),
  countUnused: prepare<{ accountId: number }, { count: number }>('panelRecoveryCodes.countUnused', ({ db }, p) =>
    db
      .selectFrom('service_panel_recovery_codes')
      .select(raw<number>`count(*)`.as('count'))
      .where('account_id', '=', p.accountId)
      .where('used_at', 'is', null),
  ),
};

const q = PANEL_RECOVERY_CODE_STATEMENTS;

/** An account's two-factor recovery codes, each kept as its SHA-256 only and accepted once. */
export class PanelRecoveryCodeStore implements PanelRecoveryCodeStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** The account's codes become these, the old ones (used or not) gone, together. */
  replace(accountId: number, codeHashes: readonly Buffer[], nowMs: number): Promise<void> {
    return inTransaction(this.sql, async (sql) => {
      await q.removeOfAccount.run(sql, { accountId });
      for (const codeHash of codeHashes) await q.insert.run(sql, { accountId, codeHash, nowMs });
    });
  }

  /** Spends the code: true once, false when it is not the account's or was used. */
  async use(accountId: number, codeHash: Buffer, nowMs: number): Promise<boolean> {
    return (await q.use.run(this.sql, { accountId, codeHash, nowMs })) === 1;
  }

  async countUnused(accountId: number): Promise<number> {
    return (await q.countUnused.first(this.sql, { accountId }))?.count ?? 0;
  }

  async removeAllOf(accountId: number): Promise<void> {
    await q.removeOfAccount.run(this.sql, { accountId });
  }
}
