export type { DayCount, OpenTicketRow, TypeDayCount } from '../dashboard-counts.js';

import type { DayCount, OpenTicketRow, TypeDayCount } from '../dashboard-counts.js';

/** The panel dashboard's counts per day over a bounded range (read from an index), and its open tickets. */
export interface DashboardCountsPort {
  /** Punishments created per day (0 = the day of `sinceMs`) and type in [sinceMs, untilMs). */
  punishmentsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<TypeDayCount[]>;
  /** Tickets created per day in [sinceMs, untilMs). */
  ticketsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<DayCount[]>;
  /** The newest tickets with status `Open`. */
  openTickets(networkId: number, limit: number): Promise<OpenTicketRow[]>;
}
