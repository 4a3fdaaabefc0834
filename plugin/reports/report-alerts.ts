import type { ModerationApi } from '../../src/api/moderation-api.js';
import { REPORT_TICKET_TYPES, type StaffTicketSummary } from '../../src/contract/staff-ticket-schemas.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { CommandSender, Player } from '../../src/runtime/plugin-api.js';
import type { CreatedReport } from '../core/report-events.js';
import type { MessageRenderer } from '../messages/messages.js';
import { playerWritten } from '../messages/player-text.js';
import type { MessageReader } from '../messages/reader.js';

/** Players holding it are told of each new report. */
export const REPORTS_NOTIFY_PERMISSION = 'bailiff.reports.notify';
/** The newest open reports one poll reads. */
export const ALERT_POLL_PAGE_SIZE = 20;
/** Ids of reports already alerted, kept so none is alerted twice (the oldest are forgotten first). */
const MAX_REMEMBERED = 500;

export interface ReportAlertDeps {
  client: Pick<ModerationApi, 'listTickets' | 'gate' | 'extensions'>;
  online(): Player[];
  console: CommandSender;
  messages(reader?: MessageReader): MessageRenderer;
  /** `ticketUpdates.pollIntervalMs`, read at each tick so a reload applies it; 0: no polls. */
  pollIntervalMs(): number;
  clock: Clock;
  logger: Logger;
}

/**
 * Tells holders of `bailiff.reports.notify` (and the console) of new reports: those made on this
 * server at once, those made elsewhere in the network when a poll of the open reports finds them.
 * The first poll learns where the list stands (alerting only reports made since this server
 * started); later ones alert what is newer. Polls run only
 * while a holder is online, never while the gate is closed or the service lacks the route.
 */
export class ReportAlerts {
  readonly #alerted = new Set<string>();
  /** The newest `createdAt` seen (the service's time); undefined until a poll has answered. */
  #newestSeenMs: number | undefined;
  #lastPollAt = Number.NEGATIVE_INFINITY;
  /** A ticket was delivered from here: poll at the next tick, whatever the interval (even 0). */
  #soon = false;
  readonly #startedAt: number;

  constructor(private readonly deps: ReportAlertDeps) {
    this.#startedAt = deps.clock.now();
  }

  /** Tells the staff online of one report, once per id. */
  alert(report: CreatedReport): void {
    if (this.#alerted.has(report.id)) return;
    this.#remember(report.id);
    const lineIn = (reader?: MessageReader) =>
      this.deps.messages(reader).render('reports.alert', {
        reporter: playerWritten(report.reporterName),
        reported: playerWritten(report.reportedName ?? '-'),
        reason: playerWritten(report.reason),
        id: report.id,
      });
    this.deps.console.sendMessage(lineIn());
    for (const player of this.deps.online()) {
      if (player.hasPermission(REPORTS_NOTIFY_PERMISSION)) player.sendMessage(lineIn(player));
    }
  }

  /** Makes the next tick poll without waiting for the interval (a report was just delivered from here). */
  pollSoon(): void {
    this.#soon = true;
  }

  /** Polls when one is due; called every second or so by the feature. */
  async tick(): Promise<void> {
    const intervalMs = this.deps.pollIntervalMs();
    const now = this.deps.clock.now();
    const due = this.#soon || (intervalMs > 0 && now - this.#lastPollAt >= intervalMs);
    if (!due) return;
    if (this.#newestSeenMs !== undefined && !this.#holderOnline()) return;
    const { client } = this.deps;
    if (client.extensions.isMissing('listTickets', now) || client.gate.closure(now)) return;
    this.#lastPollAt = now;
    this.#soon = false;
    let tickets: StaffTicketSummary[];
    try {
      ({ tickets } = await client.listTickets({
        status: 'open',
        type: REPORT_TICKET_TYPES.join(','),
        pageSize: ALERT_POLL_PAGE_SIZE,
      }));
    } catch (error) {
      this.deps.logger.debug('open reports could not be read for the staff alert', { error: String(error) });
      return;
    }
    this.#learn(tickets);
  }

  #learn(tickets: readonly StaffTicketSummary[]): void {
    const firstAnswer = this.#newestSeenMs === undefined;
    const since = this.#newestSeenMs ?? Number.NEGATIVE_INFINITY;
    // The list is newest first; alerts go oldest first.
    const fresh = tickets
      .filter((ticket) => Date.parse(ticket.createdAt) >= since && !this.#alerted.has(ticket.id))
      .reverse();
    this.#newestSeenMs = Math.max(since, ...tickets.map((ticket) => Date.parse(ticket.createdAt)));
    for (const ticket of fresh) {
      // The first answer is where the list stood, but for reports made since this server started.
      if (firstAnswer && Date.parse(ticket.createdAt) < this.#startedAt) this.#remember(ticket.id);
      else
        this.alert({
          id: ticket.id,
          reporterName: ticket.creatorName,
          reportedName: ticket.reportedPlayerName ?? undefined,
          reason: ticket.excerpt,
        });
    }
  }

  #holderOnline(): boolean {
    return this.deps.online().some((player) => player.hasPermission(REPORTS_NOTIFY_PERMISSION));
  }

  #remember(id: string): void {
    this.#alerted.add(id);
    if (this.#alerted.size <= MAX_REMEMBERED) return;
    const oldest = this.#alerted.values().next().value;
    if (oldest !== undefined) this.#alerted.delete(oldest);
  }
}
