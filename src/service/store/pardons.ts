import { prepare, type SqlContext } from '../db/prepared.js';
import type { PardonRecord, PardonStorePort, PardonView } from './ports/pardons.js';

/** The statements of {@link PardonStore}; the query-plan tests check each one's plan. */
export const PARDON_STATEMENTS = {
  insert: prepare<PardonRecord, never>('pardons.insert', ({ db }, p) =>
    db
      .insertInto('service_pardons')
      .values({
        network_id: p.networkId,
        punishment_id: p.punishmentId,
        issuer_name: p.issuerName,
        reason: p.reason,
        server_id: p.serverId,
        pardoned_at: p.pardonedAt,
      })
      .onConflict((conflict) => conflict.doNothing()),
  ),
  byPunishment: prepare<{ networkId: number; punishmentId: string }, PardonView>('pardons.byPunishment', ({ db }, p) =>
    db
      .selectFrom('service_pardons as p')
      .leftJoin('service_servers as s', 's.id', 'p.server_id')
      .select(['p.issuer_name as issuerName', 'p.reason', 's.name as server', 'p.pardoned_at as pardonedAt'])
      .where('p.network_id', '=', p.networkId)
      .where('p.punishment_id', '=', p.punishmentId),
  ),
};

const q = PARDON_STATEMENTS;

/** Who pardoned a punishment, when and why (the pardon extension); one per punishment. */
export class PardonStore implements PardonStorePort {
  constructor(private readonly sql: SqlContext) {}

  /** Records the first pardon of a punishment; a later one changes nothing. */
  async record(pardon: PardonRecord): Promise<boolean> {
    return (await q.insert.run(this.sql, pardon)) === 1;
  }

  find(networkId: number, punishmentId: string): Promise<PardonView | undefined> {
    return q.byPunishment.first(this.sql, { networkId, punishmentId });
  }
}
