import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import { DAY_MS, type DayCount, type OpenTicketRow, type TypeDayCount } from '../dashboard-counts.js';

/**
 * The statements of {@link PgDashboardCounts}. Each count reads a bounded range of days from an
 * index alone ((network_id, created_at, type_ordinal) and (network_id, created_at)); the open
 * tickets are read newest first from (network_id, status, created_at).
 */
export const PG_DASHBOARD_SQL = pgStatements('dashboard', {
  punishmentsPerDay: `SELECT ((created_at - $2) / ${DAY_MS})::integer AS day, type_ordinal AS "typeOrdinal",
         count(*)::integer AS count
       FROM service_punishments
       WHERE network_id = $1 AND created_at >= $2 AND created_at < $3
       GROUP BY 1, 2 ORDER BY 1, 2`,
  ticketsPerDay: `SELECT ((created_at - $2) / ${DAY_MS})::integer AS day, count(*)::integer AS count
       FROM service_tickets
       WHERE network_id = $1 AND created_at >= $2 AND created_at < $3
       GROUP BY 1 ORDER BY 1`,
  openTickets: `SELECT id, type, subject, priority, creator_name AS "creatorName", created_at AS "createdAt"
       FROM service_tickets WHERE network_id = $1 AND status = 'Open' ORDER BY created_at DESC LIMIT $2`,
});

/** The dashboard's counts per day and its list of open tickets, on PostgreSQL. */
export class PgDashboardCounts {
  constructor(private readonly db: PgDb) {}

  /** Punishments created per day (0 = the day of `sinceMs`) and type in [sinceMs, untilMs). */
  punishmentsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<TypeDayCount[]> {
    return this.db.rows(PG_DASHBOARD_SQL.punishmentsPerDay, [networkId, sinceMs, untilMs]);
  }

  /** Tickets created per day in [sinceMs, untilMs). */
  ticketsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<DayCount[]> {
    return this.db.rows(PG_DASHBOARD_SQL.ticketsPerDay, [networkId, sinceMs, untilMs]);
  }

  /** The newest open tickets. */
  openTickets(networkId: number, limit: number): Promise<OpenTicketRow[]> {
    return this.db.rows(PG_DASHBOARD_SQL.openTickets, [networkId, limit]);
  }
}
