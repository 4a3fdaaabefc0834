/** A one-time appeal code as stored: whose it is and for which punishment (the code itself only as its hash). */
export interface AppealCode {
  networkId: number;
  punishmentId: string;
  playerUuid: string;
  playerName: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}

/** A code to store: its hash, and whom and what it is for. */
export interface NewAppealCode {
  networkId: number;
  codeHash: Buffer;
  punishmentId: string;
  playerUuid: string;
  playerName: string;
  createdAtMs: number;
  expiresAtMs: number;
}

/** What the code queries select: every column but the hash. */
export const APPEAL_CODE_COLUMNS =
  'network_id, punishment_id, player_uuid, player_name, created_at, expires_at, used_at';

/** A row of `service_appeal_codes` ({@link APPEAL_CODE_COLUMNS}) as both databases return it. */
export interface AppealCodeRow {
  network_id: number;
  punishment_id: string;
  player_uuid: string;
  player_name: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export const toAppealCode = (row: AppealCodeRow): AppealCode => ({
  networkId: row.network_id,
  punishmentId: row.punishment_id,
  playerUuid: row.player_uuid,
  playerName: row.player_name,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});
