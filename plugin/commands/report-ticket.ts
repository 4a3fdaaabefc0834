import { type CreateTicketBody, MAX_CHAT_LINE_LENGTH, MAX_PLAYER_NAME_LENGTH } from '../../src/contract/schemas.js';
import { plainPlayerText } from '../../src/minecraft/player-text.js';
import type { KnownPlayer } from '../identity/known-player.js';
import type { RecentLine } from '../players/recent-chat.js';
import type { ReportKind } from '../players/report-cooldowns.js';

const SUBJECTS: Record<ReportKind, string> = { player: 'Player report', chat: 'Chat report' };
/** The description of a chat report made without a reason (the contract needs one). */
export const CHAT_REPORT_DEFAULT_REASON = 'their chat (lines attached)';

export interface Report {
  kind: ReportKind;
  reporter: KnownPlayer;
  reported: KnownPlayer;
  /** As the player typed it, already checked against `reports.maxReasonLength`. */
  reason: string;
  /** Chat reports: the reported player's lines, oldest first. */
  lines: RecentLine[];
}

/**
 * Text a player typed as the contract takes it: control characters removed (they would let a
 * player forge lines in a panel or a log), trimmed, at most `max` characters; undefined when
 * nothing is left.
 */
export function contractText(text: string, max: number): string | undefined {
  const clean = plainPlayerText(text).trim().slice(0, max).trim();
  return clean === '' ? undefined : clean;
}

/** The ticket a report opens: type `player` or `chat`, the reported player, and for chat their lines with times. */
export function reportTicket(report: Report): CreateTicketBody {
  const { reporter, reported } = report;
  const reportedName = contractText(reported.name, MAX_PLAYER_NAME_LENGTH) ?? reported.uuid;
  const chatMessages = report.lines.flatMap((line) => {
    const message = contractText(line.message, MAX_CHAT_LINE_LENGTH);
    const playerName = contractText(line.playerName, MAX_PLAYER_NAME_LENGTH);
    return message && playerName ? [{ playerName, message, sentAt: new Date(line.sentAtMs).toISOString() }] : [];
  });
  return {
    creatorUuid: reporter.uuid,
    creatorName: contractText(reporter.name, MAX_PLAYER_NAME_LENGTH) ?? reporter.uuid,
    type: report.kind,
    subject: `${SUBJECTS[report.kind]}: ${reportedName}`,
    description: report.reason,
    reportedPlayerUuid: reported.uuid,
    reportedPlayerName: reportedName,
    ...(report.kind === 'chat' ? { chatMessages } : {}),
  };
}
