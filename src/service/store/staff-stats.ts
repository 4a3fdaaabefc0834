import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { StaffCount, StaffStatsPort } from './ports/staff-stats.js';
import { CLOSED_STATUS } from './ports/tickets.js';

type Range = { networkId: number; sinceMs: number; untilMs: number };
const COUNT = raw<number>`count(*)`;

/**
 * The statements of {@link StaffStats}; the query-plan tests check each one's plan. Each reads one
 * range of an index that also holds the name it groups by (migration 003-notes), so no row is read;
 * SQLite is told which index, as the dashboard's other counts are.
 */
export const STAFF_STATS_STATEMENTS = {
  // Whole UTC days, from the per-day counts each creation keeps (008-immunity): a range of 90 days
  // reads a row per issuer and day, however many punishments it holds.
  punishmentsByIssuer: prepare<Range, StaffCount>('staffStats.punishmentsByIssuer', ({ db }, p) =>
    db
      .selectFrom('service_staff_issued_days')
      .select(['issuer_name as name', raw<number>`sum(punishments)`.as('count')])
      .where('network_id', '=', p.networkId)
      .where('day_ms', '>=', p.sinceMs)
      .where('day_ms', '<', p.untilMs)
      .groupBy('issuer_name')
      .orderBy(raw.ref('count'), 'desc')
      .orderBy('issuer_name'),
  ),
  ticketsClosedBy: prepare<Range, StaffCount>('staffStats.ticketsClosedBy', ({ db, choices }, p) =>
    db
      .selectFrom(choices.throughIndex('service_tickets', 'service_tickets_status_updated_assignee'))
      .select(['assignee_name as name', COUNT.as('count')])
      .where('network_id', '=', p.networkId)
      .where('status', '=', raw.lit(CLOSED_STATUS))
      .where('updated_at', '>=', p.sinceMs)
      .where('updated_at', '<', p.untilMs)
      .where('assignee_name', 'is not', null)
      .groupBy('assignee_name')
      .orderBy(raw.ref('count'), 'desc')
      .orderBy('assignee_name'),
  ),
  // The accepted appeals of the range through their index, each appealed punishment by its key.
  appealsAcceptedByIssuer: prepare<Range, StaffCount>('staffStats.appealsAcceptedByIssuer', ({ db }, p) =>
    db
      .selectFrom('service_appeals as a')
      .innerJoin('service_punishments as p', (join) =>
        join.onRef('p.network_id', '=', 'a.network_id').onRef('p.id', '=', 'a.punishment_id'),
      )
      .select(['p.issuer_name as name', COUNT.as('count')])
      .where('a.network_id', '=', p.networkId)
      .where(raw<boolean>`a.status = 'accepted'`)
      .where('a.decided_at', '>=', p.sinceMs)
      .where('a.decided_at', '<', p.untilMs)
      .groupBy('p.issuer_name')
      .orderBy(raw.ref('count'), 'desc')
      .orderBy('p.issuer_name'),
  ),
};

const q = STAFF_STATS_STATEMENTS;
const counted = (rows: StaffCount[]) => rows.map((row) => ({ name: row.name, count: Number(row.count) }));

/** Punishments, closed tickets and accepted appeals per staff member over a range of time. */
export class StaffStats implements StaffStatsPort {
  constructor(private readonly sql: SqlContext) {}

  async punishmentsByIssuer(networkId: number, sinceMs: number, untilMs: number): Promise<StaffCount[]> {
    return counted(await q.punishmentsByIssuer.all(this.sql, { networkId, sinceMs, untilMs }));
  }

  async ticketsClosedBy(networkId: number, sinceMs: number, untilMs: number): Promise<StaffCount[]> {
    return counted(await q.ticketsClosedBy.all(this.sql, { networkId, sinceMs, untilMs }));
  }

  async appealsAcceptedByIssuer(networkId: number, sinceMs: number, untilMs: number): Promise<StaffCount[]> {
    return counted(await q.appealsAcceptedByIssuer.all(this.sql, { networkId, sinceMs, untilMs }));
  }
}
