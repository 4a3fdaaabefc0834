import type { RecentChat } from './recent-chat.js';
import type { ReportCooldowns } from './report-cooldowns.js';
import type { TicketDeliveries } from './ticket-deliveries.js';

/** config.yml `reports:`, read at each report so a reload applies at once. */
export interface ReportSettings {
  /** After a report, how long before the same player may make another of the same kind. */
  cooldownMs: number;
  /** The longest reason a player may give, in characters. */
  maxReasonLength: number;
  /** The reported player's newest chat lines a chat report carries (also the lines kept per player). */
  chatLines: number;
}

/** What `/report`, `/chatreport` and `/ticket <id> reply` need beyond the other commands. */
export interface PlayerReports {
  readonly recentChat: Pick<RecentChat, 'linesOf'>;
  readonly cooldowns: Pick<ReportCooldowns, 'remainingMs' | 'started' | 'cleared'>;
  readonly deliveries: Pick<TicketDeliveries, 'whileSending'>;
  settings(): ReportSettings;
}
