import { EventEmitter } from 'eventemitter3';

/** A report (a ticket of type player or chat) this server has just created at the service. */
export interface CreatedReport {
  /** The ticket id the service answered. */
  id: string;
  reporterName: string;
  /** Whom it is about; undefined for a chat report without one player. */
  reportedName?: string;
  /** The reason the reporter gave (the ticket's description), on one line. */
  reason: string;
}

/** Typed events of the plugin about reports, one object payload each. */
export interface ReportEvents {
  /** Emitted by `/report` and `/chatreport` once the service has the report (its id is known). */
  reportCreated: (report: CreatedReport) => void;
}

export type ReportEventBus = EventEmitter<ReportEvents>;

export function createReportEvents(): ReportEventBus {
  return new EventEmitter<ReportEvents>();
}
