import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import {
  APPEAL_CODE_COLUMNS,
  type AppealCode,
  type AppealCodeRow,
  type NewAppealCode,
  toAppealCode,
} from '../appeal-code-rows.js';
import { MAX_CODES_PER_HOLDER } from '../appeal-codes.js';

/** The statements of {@link PgAppealCodeStore}. */
export const PG_APPEAL_CODE_SQL = pgStatements('appealCodes', {
  pruneOfHolder: `DELETE FROM service_appeal_codes
    WHERE network_id = $1 AND punishment_id = $2 AND player_uuid = $3
      AND (used_at IS NOT NULL OR expires_at <= $4 OR code_hash NOT IN (
        SELECT code_hash FROM service_appeal_codes
        WHERE network_id = $1 AND punishment_id = $2 AND player_uuid = $3
        ORDER BY created_at DESC LIMIT ${MAX_CODES_PER_HOLDER - 1}))`,
  insert: `INSERT INTO service_appeal_codes
      (network_id, code_hash, punishment_id, player_uuid, player_name, created_at, expires_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT DO NOTHING`,
  byHash: `SELECT ${APPEAL_CODE_COLUMNS} FROM service_appeal_codes WHERE network_id = $1 AND code_hash = $2`,
  use: `UPDATE service_appeal_codes SET used_at = $3
    WHERE network_id = $1 AND code_hash = $2 AND used_at IS NULL AND expires_at > $3`,
});

/** One-time appeal codes on PostgreSQL: stored by hash, used once, until they expire. */
export class PgAppealCodeStore {
  constructor(private readonly db: PgDb) {}

  /**
   * Stores a new code, forgetting the holder's used and expired ones and their oldest live ones
   * beyond {@link MAX_CODES_PER_HOLDER}; false when its hash is taken.
   */
  issue(code: NewAppealCode): Promise<boolean> {
    const { networkId, codeHash, punishmentId, playerUuid, playerName, createdAtMs, expiresAtMs } = code;
    return this.db.transaction(async (tx) => {
      await tx.run(PG_APPEAL_CODE_SQL.pruneOfHolder, [networkId, punishmentId, playerUuid, createdAtMs]);
      const inserted = await tx.run(PG_APPEAL_CODE_SQL.insert, [
        networkId,
        codeHash,
        punishmentId,
        playerUuid,
        playerName,
        createdAtMs,
        expiresAtMs,
      ]);
      return inserted === 1;
    });
  }

  async byHash(networkId: number, codeHash: Buffer): Promise<AppealCode | undefined> {
    const row = await this.db.row<AppealCodeRow>(PG_APPEAL_CODE_SQL.byHash, [networkId, codeHash]);
    return row && toAppealCode(row);
  }

  /** Marks a live code used; false when it was used already, has expired, or is unknown. */
  async use(networkId: number, codeHash: Buffer, nowMs: number): Promise<boolean> {
    return (await this.db.run(PG_APPEAL_CODE_SQL.use, [networkId, codeHash, nowMs])) === 1;
  }
}
