import type { ChatLine, Reply, Ticket, TicketSummary } from '../../contract/schemas.js';
import type { TicketRepliesTable, TicketsTable } from '../db/tables.js';
import { toIso, UnrenderableDateError } from './dates.js';

/** A row of `service_tickets` as both databases return it. */
export type TicketRow = Omit<TicketsTable, 'network_id' | 'closed_reason'>;

/** A row of `service_ticket_replies`. */
export type ReplyRow = Pick<TicketRepliesTable, 'id' | 'author_name' | 'message' | 'created_at'>;

/** What events and ownership checks need of a stored ticket. */
export interface TicketFacts {
  id: string;
  type: string;
  subject: string;
  status: string;
  creatorUuid: string;
  creatorName: string;
  reportedPlayerName: string | null;
  server: string | null;
  assigneeUuid: string | null;
  assigneeName: string | null;
}

/** One ticket of a staff list (the ticket stores' `page`). */
export type StaffTicketRow = TicketSummary & {
  description: string;
  reportedPlayerName: string | null;
  createdServer: string | null;
  assigneeName: string | null;
};

/** Told about a stored ticket or reply whose date no Date holds (only an older version could have stored one). */
export type UnrenderableTicketReport = (ticketId: string, error: UnrenderableDateError) => void;

export const SUMMARY_COLUMNS =
  'id, type, subject, status, priority, creator_uuid, creator_name, created_at, updated_at';

type SummaryRow = Pick<
  TicketRow,
  'id' | 'type' | 'subject' | 'status' | 'priority' | 'creator_uuid' | 'creator_name' | 'created_at' | 'updated_at'
>;

export function toSummary(row: SummaryRow): TicketSummary {
  return {
    id: row.id,
    type: row.type,
    subject: row.subject,
    status: row.status,
    priority: row.priority,
    creatorUuid: row.creator_uuid,
    creatorName: row.creator_name,
    createdAt: toIso(row.created_at, 'createdAt'),
    updatedAt: toIso(row.updated_at, 'updatedAt'),
  };
}

export function toReply(row: ReplyRow): Reply {
  return {
    id: row.id,
    authorName: row.author_name,
    message: row.message,
    createdAt: toIso(row.created_at, `replies.${row.id}.createdAt`),
  };
}

/** The whole ticket, as the contract shows it, from its row and its replies already rendered. */
export function toTicket(row: TicketRow, replies: Reply[]): Ticket {
  return {
    ...toSummary(row),
    description: row.description,
    reportedPlayerUuid: row.reported_player_uuid,
    reportedPlayerName: row.reported_player_name,
    tags: JSON.parse(row.tags) as string[],
    replies,
    // Extension fields, present on tickets opened through the ticket creation extension.
    ...(row.created_server === null ? {} : { createdServer: row.created_server }),
    ...(row.replay_url === null ? {} : { replayUrl: row.replay_url }),
    ...(row.chat_messages === null ? {} : { chatMessages: JSON.parse(row.chat_messages) as ChatLine[] }),
  };
}

/** Renders each row, leaving out (and reporting) one whose date cannot be shown. */
export function renderable<Row extends { id: string }, Shown>(
  rows: readonly Row[],
  ticketId: string | undefined,
  show: (row: Row) => Shown,
  report: UnrenderableTicketReport,
): Shown[] {
  const shown: Shown[] = [];
  for (const row of rows) {
    try {
      shown.push(show(row));
    } catch (error) {
      if (!(error instanceof UnrenderableDateError)) throw error;
      report(ticketId ?? row.id, error);
    }
  }
  return shown;
}

export function toFacts(row: TicketRow): TicketFacts {
  return {
    id: row.id,
    type: row.type,
    subject: row.subject,
    status: row.status,
    creatorUuid: row.creator_uuid,
    creatorName: row.creator_name,
    reportedPlayerName: row.reported_player_name,
    server: row.created_server,
    assigneeUuid: row.assignee_uuid,
    assigneeName: row.assignee_name,
  };
}

export function toStaffRow(row: TicketRow): StaffTicketRow {
  return {
    ...toSummary(row),
    description: row.description,
    reportedPlayerName: row.reported_player_name,
    createdServer: row.created_server,
    assigneeName: row.assignee_name,
  };
}

/** A punishment issued from a ticket, as both databases return it. */
export interface TicketPunishmentRow {
  id: string;
  target_uuid: string;
  target_name: string;
  issuer_name: string;
  type_ordinal: number;
  status: string;
  reason: string;
  duration: number;
  created_at: number;
}

/** A punishment issued from a ticket (or created with the ticket attached), as the ticket page lists it. */
export interface TicketPunishment {
  id: string;
  targetUuid: string;
  targetName: string;
  issuerName: string;
  typeOrdinal: number;
  status: string;
  reason: string;
  durationMs: number;
  createdAtMs: number;
}

export function toTicketPunishment(row: TicketPunishmentRow): TicketPunishment {
  return {
    id: row.id,
    targetUuid: row.target_uuid,
    targetName: row.target_name,
    issuerName: row.issuer_name,
    typeOrdinal: Number(row.type_ordinal),
    status: row.status,
    reason: row.reason,
    durationMs: Number(row.duration),
    createdAtMs: Number(row.created_at),
  };
}

/** A ticket one of a player's punishments was issued from. */
export interface PunishmentTicketRow {
  punishment_id: string;
  ticket_id: string;
  subject: string;
}

/** A ticket a punishment was issued from (the player page's link back). */
export interface PunishmentTicket {
  punishmentId: string;
  ticketId: string;
  subject: string;
}
