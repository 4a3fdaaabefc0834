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

/** The panel dashboard's counts per day over a bounded range (read from an index), and its open tickets. */
export interface DashboardCountsPort {
  /** Punishments created per day (0 = the day of `sinceMs`) and type in [sinceMs, untilMs). */
  punishmentsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<TypeDayCount[]>;
  /** Tickets created per day in [sinceMs, untilMs). */
  ticketsPerDay(networkId: number, sinceMs: number, untilMs: number): Promise<DayCount[]>;
  /** The newest tickets with status `Open`. */
  openTickets(networkId: number, limit: number): Promise<OpenTicketRow[]>;
}
