import type { Db } from '../../db/open-db.js';

export const DAY_MS = 86_400_000;

/** How many rows of one kind were created on one day (`day` counts from the range's first day, 0-based). */
export interface DayCount {
  day: number;
  count: number;
}

export interface TypeDayCount extends DayCount {
  typeOrdinal: number;
}

export interface OpenTicketRow {
  id: string;
  type: string;
  subject: string;
  priority: string;
  creatorName: string;
  createdAt: number;
}

/**
 * The statements of {@link DashboardCounts}; test/service/query-plans.test.ts checks each one's plan.
 * Each count reads a bounded range of days from an index alone, however many rows are stored.
 */
export const DASHBOARD_SQL = {
  punishmentsPerDay: `SELECT CAST((created_at - @sinceMs) / ${DAY_MS} AS INTEGER) AS day, type_ordinal AS typeOrdinal, count(*) AS count
       FROM service_punishments INDEXED BY service_punishments_created_type
       WHERE network_id = @networkId AND created_at >= @sinceMs AND created_at < @untilMs
       GROUP BY day, type_ordinal`,
  ticketsPerDay: `SELECT CAST((created_at - @sinceMs) / ${DAY_MS} AS INTEGER) AS day, count(*) AS count
       FROM service_tickets INDEXED BY service_tickets_created
       WHERE network_id = @networkId AND created_at >= @sinceMs AND created_at < @untilMs
       GROUP BY day`,
  openTickets: `SELECT id, type, subject, priority, creator_name AS creatorName, created_at AS createdAt
       FROM service_tickets WHERE network_id = ? AND status = 'Open' ORDER BY created_at DESC LIMIT ?`,
} as const;

/** The dashboard's counts per day and its list of open tickets. */
export class DashboardCounts {
  private readonly punishmentsStatement;
  private readonly ticketsStatement;
  private readonly openStatement;

  constructor(db: Db) {
    type Range = { networkId: number; sinceMs: number; untilMs: number };
    this.punishmentsStatement = db.prepare<Range, TypeDayCount>(DASHBOARD_SQL.punishmentsPerDay);
    this.ticketsStatement = db.prepare<Range, DayCount>(DASHBOARD_SQL.ticketsPerDay);
    this.openStatement = db.prepare<[number, number], OpenTicketRow>(DASHBOARD_SQL.openTickets);
  }

  /** Punishments created per day and type in [sinceMs, untilMs). */
  punishmentsPerDay(networkId: number, sinceMs: number, untilMs: number): TypeDayCount[] {
    return this.punishmentsStatement.all({ networkId, sinceMs, untilMs });
  }

  /** Tickets created per day in [sinceMs, untilMs). */
  ticketsPerDay(networkId: number, sinceMs: number, untilMs: number): DayCount[] {
    return this.ticketsStatement.all({ networkId, sinceMs, untilMs });
  }

  /** The newest open tickets. */
  openTickets(networkId: number, limit: number): OpenTicketRow[] {
    return this.openStatement.all(networkId, limit);
  }
}
