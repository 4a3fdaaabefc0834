import type { Db } from '../../db/open-db.js';

export interface PardonRecord {
  networkId: number;
  punishmentId: string;
  issuerName: string;
  reason: string;
  /** The server whose key asked for it; null for a pardon from the panel (an accepted appeal). */
  serverId: number | null;
  pardonedAt: number;
}

export interface PardonView {
  issuerName: string;
  reason: string;
  server: string | null;
  pardonedAt: number;
}

/** The statements of {@link PardonStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PARDON_SQL = {
  insert: `INSERT OR IGNORE INTO service_pardons (network_id, punishment_id, issuer_name, reason, server_id, pardoned_at)
       VALUES (@networkId, @punishmentId, @issuerName, @reason, @serverId, @pardonedAt)`,
  byPunishment: `SELECT p.issuer_name AS issuerName, p.reason, s.name AS server, p.pardoned_at AS pardonedAt
       FROM service_pardons p LEFT JOIN service_servers s ON s.id = p.server_id
       WHERE p.network_id = ? AND p.punishment_id = ?`,
} as const;

/** Who pardoned a punishment, when and why (the pardon extension); one per punishment. */
export class PardonStore {
  private readonly insertStatement;
  private readonly byPunishment;

  constructor(db: Db) {
    this.insertStatement = db.prepare<PardonRecord>(PARDON_SQL.insert);
    this.byPunishment = db.prepare<[number, string], PardonView>(PARDON_SQL.byPunishment);
  }

  /** Records the first pardon of a punishment; a later one changes nothing. */
  record(pardon: PardonRecord): boolean {
    return this.insertStatement.run(pardon).changes === 1;
  }

  find(networkId: number, punishmentId: string): PardonView | undefined {
    return this.byPunishment.get(networkId, punishmentId);
  }
}
