import { sql as raw, type Selectable } from 'kysely';
import { inTransaction, prepare, type SqlContext } from '../db/prepared.js';
import type { AppealCodesTable } from '../db/tables.js';
import { toAppealCode } from './appeal-code-rows.js';
import type { AppealCode, AppealCodeStorePort, NewAppealCode } from './ports/appeal-codes.js';
import { MAX_CODES_PER_HOLDER } from './ports/appeal-codes.js';

/** Every column but the hash: what a code is rendered from (`toAppealCode`). */
const CODE = [
  'network_id',
  'punishment_id',
  'player_uuid',
  'player_name',
  'created_at',
  'expires_at',
  'used_at',
] as const;
type CodeRow = Pick<Selectable<AppealCodesTable>, (typeof CODE)[number]>;

type Holder = { networkId: number; punishmentId: string; playerUuid: string };
type ByHash = { networkId: number; codeHash: Buffer };

/** The statements of {@link AppealCodeStore}; the query-plan tests check each one's plan. */
export const APPEAL_CODE_STATEMENTS = {
  // Before a holder's new code: their used and expired codes go, and live ones beyond the newest few.
  pruneOfHolder: prepare<Holder & { createdAtMs: number }, never>('appealCodes.pruneOfHolder', ({ db }, p) =>
    db
      .deleteFrom('service_appeal_codes')
      .where('network_id', '=', p.networkId)
      .where('punishment_id', '=', p.punishmentId)
      .where('player_uuid', '=', p.playerUuid)
      .where((eb) =>
        eb.or([
          eb('used_at', 'is not', null),
          eb('expires_at', '<=', p.createdAtMs),
          eb(
            'code_hash',
            'not in',
            eb
              .selectFrom('service_appeal_codes')
              .select('code_hash')
              .where('network_id', '=', p.networkId)
              .where('punishment_id', '=', p.punishmentId)
              .where('player_uuid', '=', p.playerUuid)
              .orderBy('created_at', 'desc')
              .limit(raw.lit(MAX_CODES_PER_HOLDER - 1)),
          ),
        ]),
      ),
  ),
  insert: prepare<NewAppealCode, never>('appealCodes.insert', ({ db }, p) =>
    db
      .insertInto('service_appeal_codes')
      .values({
        network_id: p.networkId,
        code_hash: p.codeHash,
        punishment_id: p.punishmentId,
        player_uuid: p.playerUuid,
        player_name: p.playerName,
        created_at: p.createdAtMs,
        expires_at: p.expiresAtMs,
      })
      .onConflict((conflict) => conflict.doNothing()),
  ),
  byHash: prepare<ByHash, CodeRow>('appealCodes.byHash', ({ db }, p) =>
    db
      .selectFrom('service_appeal_codes')
      .select(CODE)
      .where('network_id', '=', p.networkId)
      .where('code_hash', '=', p.codeHash),
  ),
  use: prepare<ByHash & { nowMs: number }, never>('appealCodes.use', ({ db }, p) =>
    db
      .updateTable('service_appeal_codes')
      .set({ used_at: p.nowMs })
      .where('network_id', '=', p.networkId)
      .where('code_hash', '=', p.codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', p.nowMs),
  ),
};

const q = APPEAL_CODE_STATEMENTS;

/** One-time appeal codes: stored by hash, used once, until they expire. */
export class AppealCodeStore implements AppealCodeStorePort {
  constructor(private readonly sql: SqlContext) {}

  /**
   * Stores a new code, forgetting the holder's used and expired ones and their oldest live ones
   * beyond {@link MAX_CODES_PER_HOLDER}; false when its hash is taken.
   */
  issue(code: NewAppealCode): Promise<boolean> {
    return inTransaction(this.sql, async (sql) => {
      await q.pruneOfHolder.run(sql, code);
      return (await q.insert.run(sql, code)) === 1;
    });
  }

  async byHash(networkId: number, codeHash: Buffer): Promise<AppealCode | undefined> {
    const row = await q.byHash.first(this.sql, { networkId, codeHash });
    return row && toAppealCode(row);
  }

  /** Marks a live code used; false when it was used already, has expired, or is unknown. */
  async use(networkId: number, codeHash: Buffer, nowMs: number): Promise<boolean> {
    return (await q.use.run(this.sql, { networkId, codeHash, nowMs })) === 1;
  }
}
