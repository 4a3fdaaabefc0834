import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { DashboardCountsPort, DayCount, OpenTicketRow, TypeDayCount } from './ports/dashboard.js';
import { DAY_MS } from './ports/dashboard.js';

type Range = { networkId: number; sinceMs: number; untilMs: number };

/** The day of `created_at` counted from the range's first day. */
const dayOf = (sinceMs: number) => raw<number>`CAST((created_at - ${sinceMs}) / ${raw.lit(DAY_MS)} AS INTEGER)`;
const COUNT = raw<number>`count(*)`;

/**
 * The statements of {@link DashboardCounts}; the query-plan tests check each one's plan. Each count
 * reads a bounded range of days from an index alone, however many rows are stored (SQLite is told
 * which: without statistics it would rather read the network's rows by another index).
 */
export const DASHBOARD_STATEMENTS = {
  punishmentsPerDay: prepare<Range, TypeDayCount>('dashboard.punishmentsPerDay', ({ db, choices }, p) =>
    db
      .selectFrom(choices.throughIndex('service_punishments', 'service_punishments_created_type'))
      .select([dayOf(p.sinceMs).as('day'), 'type_ordinal as typeOrdinal', COUNT.as('count')])
      .where('network_id', '=', p.networkId)
      .where('created_at', '>=', p.sinceMs)
      .where('created_at', '<', p.untilMs)
      .groupBy([raw.ref('day'), 'type_ordinal'])
      .orderBy(raw.ref('day'))
      .orderBy('type_ordinal'),
  ),
  ticketsPerDay: prepare<Range, DayCount>('dashboard.ticketsPerDay', ({ db, choices }, p) =>
    db
      .selectFrom(choices.throughIndex('service_tickets', 'service_tickets_created'))
      .select([dayOf(p.sinceMs).as('day'), COUNT.as('count')])
      .where('network_id', '=', p.networkId)
      .where('created_at', '>=', p.sinceMs)
      .where('created_at', '<', p.untilMs)
      .groupBy(raw.ref('day'))
      .orderBy(raw.ref('day')),
  ),
  openTickets: prepare<{ networkId: number; limit: number }, OpenTicketRow>('dashboard.openTickets', ({ db }, p) =>
    db
      .selectFrom('service_tickets')
      .select(['id', 'type', 'subject', 'priority', 'creator_name as creatorName', 'created_at as createdAt'])
      .where('network_id', '=', p.networkId)
      .where('status', '=', raw.lit('Open'))
      .orderBy('created_at', 'desc')
      .limit(p.limit),
  ),
};

const q = DASHBOARD_STATEMENTS;

/** The dashboard's counts per day and its list of open tickets. */
export class DashboardCounts implements DashboardCountsPort {
  constructor(private readonly sql: SqlContext) {}

  punishmentsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<TypeDayCount[]> {
    return q.punishmentsPerDay.all(this.sql, { networkId, sinceMs, untilMs });
  }

  ticketsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<DayCount[]> {
    return q.ticketsPerDay.all(this.sql, { networkId, sinceMs, untilMs });
  }

  openTickets(networkId: number, limit: number): Promise<OpenTicketRow[]> {
    return q.openTickets.all(this.sql, { networkId, limit });
  }
}
