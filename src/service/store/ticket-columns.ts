import type { ChatLine } from '../../contract/schemas.js';

/** A ticket a player opened through the ticket creation extension. */
export interface NewTicket {
  id: string;
  type: string;
  subject: string;
  description: string;
  priority: string;
  creatorUuid: string;
  creatorName: string;
  reportedPlayerUuid: string | null;
  reportedPlayerName: string | null;
  tags: string[];
  createdServer: string | null;
  replayUrl: string | null;
  chatMessages: ChatLine[];
  createdAtMs: number;
}

/** What every write of a ticket's row takes from the ticket, whether a player opened it or a seed saves it. */
type TicketHead = Omit<NewTicket, 'createdServer' | 'replayUrl' | 'chatMessages' | 'createdAtMs'>;

/** The columns every ticket insert starts with, in the order of {@link ticketColumns}. */
export const TICKET_HEAD_COLUMNS =
  'network_id, id, type, subject, description, status, priority, creator_uuid, creator_name, reported_player_uuid, reported_player_name, tags';

/** Saving a ticket over a stored one replaces all but its extension columns; both databases take this clause. */
export const TICKET_UPSERT = `ON CONFLICT (network_id, id) DO UPDATE SET type = excluded.type, subject = excluded.subject,
         description = excluded.description, status = excluded.status, priority = excluded.priority,
         creator_uuid = excluded.creator_uuid, creator_name = excluded.creator_name,
         reported_player_uuid = excluded.reported_player_uuid, reported_player_name = excluded.reported_player_name,
         tags = excluded.tags, created_at = excluded.created_at, updated_at = excluded.updated_at`;

export const REPLY_UPSERT = `ON CONFLICT (network_id, ticket_id, id) DO UPDATE SET author_name = excluded.author_name,
         message = excluded.message, created_at = excluded.created_at`;

/**
 * The values of {@link TICKET_HEAD_COLUMNS}, UUIDs in lower case: SQLite binds them by name, PostgreSQL takes
 * `Object.values` (the keys' order is the columns').
 */
export function ticketColumns(networkId: number, ticket: TicketHead, status: string) {
  return {
    networkId,
    id: ticket.id,
    type: ticket.type,
    subject: ticket.subject,
    description: ticket.description,
    status,
    priority: ticket.priority,
    creatorUuid: ticket.creatorUuid.toLowerCase(),
    creatorName: ticket.creatorName,
    reportedPlayerUuid: ticket.reportedPlayerUuid?.toLowerCase() ?? null,
    reportedPlayerName: ticket.reportedPlayerName,
    tags: JSON.stringify(ticket.tags),
  };
}
