import type { Db } from '../../db/open-db.js';
import {
  APPEAL_CODE_COLUMNS,
  type AppealCode,
  type AppealCodeRow,
  type NewAppealCode,
  toAppealCode,
} from './appeal-code-rows.js';

/** Live codes one player keeps for one punishment; a new one beyond this replaces the oldest. */
export const MAX_CODES_PER_HOLDER = 10;

/** The statements of {@link AppealCodeStore}; test/service/query-plans.test.ts checks each one's plan. */
export const APPEAL_CODE_SQL = {
  // Before a holder's new code: their used and expired codes go, and live ones beyond the newest few.
  pruneOfHolder: `DELETE FROM service_appeal_codes
    WHERE network_id = @networkId AND punishment_id = @punishmentId AND player_uuid = @playerUuid
      AND (used_at IS NOT NULL OR expires_at <= @createdAtMs OR code_hash NOT IN (
        SELECT code_hash FROM service_appeal_codes
        WHERE network_id = @networkId AND punishment_id = @punishmentId AND player_uuid = @playerUuid
        ORDER BY created_at DESC LIMIT ${MAX_CODES_PER_HOLDER - 1}))`,
  insert: `INSERT INTO service_appeal_codes
      (network_id, code_hash, punishment_id, player_uuid, player_name, created_at, expires_at)
    VALUES (@networkId, @codeHash, @punishmentId, @playerUuid, @playerName, @createdAtMs, @expiresAtMs)
    ON CONFLICT DO NOTHING`,
  byHash: `SELECT ${APPEAL_CODE_COLUMNS} FROM service_appeal_codes WHERE network_id = ? AND code_hash = ?`,
  use: `UPDATE service_appeal_codes SET used_at = @nowMs
    WHERE network_id = @networkId AND code_hash = @codeHash AND used_at IS NULL AND expires_at > @nowMs`,
} as const;

/** One-time appeal codes: stored by hash, used once, until they expire. */
export class AppealCodeStore {
  private readonly pruneOfHolderStatement;
  private readonly insertStatement;
  private readonly byHashStatement;
  private readonly useStatement;

  constructor(private readonly db: Db) {
    this.pruneOfHolderStatement = db.prepare(APPEAL_CODE_SQL.pruneOfHolder);
    this.insertStatement = db.prepare(APPEAL_CODE_SQL.insert);
    this.byHashStatement = db.prepare<[number, Buffer], AppealCodeRow>(APPEAL_CODE_SQL.byHash);
    this.useStatement = db.prepare(APPEAL_CODE_SQL.use);
  }

  /**
   * Stores a new code, forgetting the holder's used and expired ones and their oldest live ones
   * beyond {@link MAX_CODES_PER_HOLDER}; false when its hash is taken.
   */
  issue(code: NewAppealCode): boolean {
    return this.db.transaction(() => {
      const { networkId, punishmentId, playerUuid, createdAtMs } = code;
      this.pruneOfHolderStatement.run({ networkId, punishmentId, playerUuid, createdAtMs });
      return this.insertStatement.run(code).changes === 1;
    })();
  }

  byHash(networkId: number, codeHash: Buffer): AppealCode | undefined {
    const row = this.byHashStatement.get(networkId, codeHash);
    return row && toAppealCode(row);
  }

  /** Marks a live code used; false when it was used already, has expired, or is unknown. */
  use(networkId: number, codeHash: Buffer, nowMs: number): boolean {
    return this.useStatement.run({ networkId, codeHash, nowMs }).changes === 1;
  }
}
