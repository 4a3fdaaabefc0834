import { z } from 'zod';
import {
  isoTimestamp,
  MAX_PLAYER_NAME_LENGTH,
  MAX_TICKET_TEXT_LENGTH,
  pageQueryFields,
  playerText,
  TICKET_TYPES,
  type TicketType,
  ticketSummary,
  uuid,
} from './schemas.js';

/**
 * The staff ticket extension: a server's staff list open reports, claim, close and reply through
 * the server's key (docs/contract/ticket-creation.md, "Staff actions").
 */

export const TICKET_LIST_STATUSES = ['open', 'closed'] as const;
export const REPORT_TICKET_TYPES: readonly TicketType[] = ['player', 'chat'];
export const MAX_TICKET_PAGE_SIZE = 50;
export const DEFAULT_TICKET_PAGE_SIZE = 10;
export const MAX_CLOSE_REASON_LENGTH = 500;

const ticketTypeList = z
  .string()
  .refine(
    (text) => text.split(',').every((type) => (TICKET_TYPES as readonly string[]).includes(type)),
    `must be a comma-separated list of ${TICKET_TYPES.join(', ')}`,
  );

/** `GET tickets?status=&type=&page=&pageSize=`: the network's tickets, newest first. */
export const ticketListQuery = z.strictObject({
  status: z.enum(TICKET_LIST_STATUSES).optional(),
  type: ticketTypeList.optional(),
  ...pageQueryFields(MAX_TICKET_PAGE_SIZE),
});
export type TicketListQuery = z.infer<typeof ticketListQuery>;

/**
 * One ticket of a staff list: the summary, whom it is about, its description on one line (at most
 * 100 characters: a report's reason), where it came from and who holds it.
 */
export const staffTicketSummary = ticketSummary.extend({
  reportedPlayerName: z.string().nullable(),
  excerpt: z.string(),
  createdServer: z.string().nullable(),
  assigneeName: z.string().nullable(),
});
export type StaffTicketSummary = z.infer<typeof staffTicketSummary>;

export const ticketListResponse = z.looseObject({
  success: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  tickets: z.array(staffTicketSummary),
});
export type TicketListResponse = z.infer<typeof ticketListResponse>;

const staffName = playerText(MAX_PLAYER_NAME_LENGTH);

export const claimTicketBody = z.strictObject({ staffName, staffUuid: uuid });
export type ClaimTicketBody = z.infer<typeof claimTicketBody>;

export const closeTicketBody = z.strictObject({
  staffName,
  staffUuid: uuid.optional(),
  reason: playerText(MAX_CLOSE_REASON_LENGTH).optional(),
});
export type CloseTicketBody = z.infer<typeof closeTicketBody>;

export const staffReplyBody = z.strictObject({
  staffName,
  staffUuid: uuid.optional(),
  message: playerText(MAX_TICKET_TEXT_LENGTH, true),
});
export type StaffReplyBody = z.infer<typeof staffReplyBody>;

/** Answer of claim and close: the ticket's state after the action. */
export const staffActionResponse = z.looseObject({
  status: z.number().int(),
  success: z.boolean(),
  ticketId: z.string(),
  ticketStatus: z.string(),
  assigneeName: z.string().nullable(),
  message: z.string(),
});
export type StaffActionResponse = z.infer<typeof staffActionResponse>;

/** Answer of a staff reply: who must be told, and the notification the service keeps for them. */
export const staffReplyResponse = z.looseObject({
  status: z.number().int(),
  success: z.boolean(),
  replyId: z.string(),
  creatorUuid: z.string(),
  notificationId: z.string(),
  notification: z.string(),
  createdAt: isoTimestamp,
  message: z.string(),
});
export type StaffReplyResponse = z.infer<typeof staffReplyResponse>;

export const MAX_NOTICE_PAGE_SIZE = 100;

/** `GET notifications/pending?since=&limit=`: the network's unread notices with their own text, oldest first. */
export const pendingNoticesQuery = z.strictObject({
  since: isoTimestamp,
  limit: z
    .number()
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_NOTICE_PAGE_SIZE, `must be at most ${MAX_NOTICE_PAGE_SIZE}`)
    .optional(),
});
export type PendingNoticesQuery = z.infer<typeof pendingNoticesQuery>;

/** A notice with its own text for one player (a staff reply), not yet acknowledged. */
export const pendingNotice = z.looseObject({
  id: z.string(),
  playerUuid: z.string(),
  message: z.string(),
  type: z.string(),
  createdAt: isoTimestamp,
});
export type PendingNotice = z.infer<typeof pendingNotice>;

export const pendingNoticesResponse = z.looseObject({
  success: z.boolean(),
  notifications: z.array(pendingNotice),
});
export type PendingNoticesResponse = z.infer<typeof pendingNoticesResponse>;
