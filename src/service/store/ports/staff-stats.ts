/** A count for one staff member (a punishment's issuer, a ticket's holder). */
export interface StaffCount {
  name: string;
  count: number;
}

/**
 * The dashboard's staff statistics over [sinceMs, untilMs): each one bounded range of one index,
 * grouped by the name the index holds, however many punishments are stored.
 */
export interface StaffStatsPort {
  /** Punishments created in the range, per issuer; the range is of whole UTC days (its ends are days' starts). */
  punishmentsByIssuer(networkId: number, sinceMs: number, untilMs: number): Promise<StaffCount[]>;
  /** Tickets closed in the range (last changed while closed), per holder (whoever closed it holds it). */
  ticketsClosedBy(networkId: number, sinceMs: number, untilMs: number): Promise<StaffCount[]>;
  /** Appeals accepted in the range, per issuer of the appealed punishment. */
  appealsAcceptedByIssuer(networkId: number, sinceMs: number, untilMs: number): Promise<StaffCount[]>;
}
