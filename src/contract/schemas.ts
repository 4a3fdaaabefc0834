import { z } from 'zod';
import { immunityWeight } from './immunity.js';
import { staffGrants } from './staff-grants.js';
import { MAX_TYPE_ORDINAL, MIN_TYPE_ORDINAL } from './type-catalogue.js';

/**
 * The moderation API contract (docs/contract/moderation-api.md) as zod schemas.
 * Requests are strict about what we send; responses keep unknown extra fields
 * (`looseObject`) so a newer service does not break an older plugin.
 */

/** What `uuid` accepts, for code that checks without zod (the chat log's batches). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuid = z.string().regex(UUID_PATTERN, 'must be a UUID like 069a79f4-44e9-4726-a5be-fca90e38aaf5');

export const isoTimestamp = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 timestamp');

export { MAX_TYPE_ORDINAL, MIN_TYPE_ORDINAL } from './type-catalogue.js';

export const typeOrdinal = z
  .number()
  .int('must be an integer')
  .min(MIN_TYPE_ORDINAL, `must be between ${MIN_TYPE_ORDINAL} and ${MAX_TYPE_ORDINAL}`)
  .max(MAX_TYPE_ORDINAL, `must be between ${MIN_TYPE_ORDINAL} and ${MAX_TYPE_ORDINAL}`);

/** Milliseconds; -1 means permanent. */
export const PERMANENT = -1;
/**
 * The longest duration, 1,000 years of 365 days: its end stays a four-digit-year date for every
 * store and reader (a Date holds ±8.64e15 ms, and a longer one would end past it); longer is `-1`.
 */
export const MAX_DURATION_MS = 1000 * 365 * 86_400_000;
export const durationMs = z
  .number()
  .int('must be an integer number of milliseconds')
  .min(PERMANENT, 'must be -1 (permanent) or a number of milliseconds >= 0')
  .max(MAX_DURATION_MS, `must be at most ${MAX_DURATION_MS} ms (1000 years); use -1 for permanent`);

export const severity = z.enum(['lenient', 'regular', 'aggravated']);
export type Severity = z.infer<typeof severity>;

export const httpUrl = z
  .string()
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value), 'must be an http(s) URL');

const nonEmpty = z.string().min(1, 'must not be empty');

// ---------------------------------------------------------------- resources

export const punishment = z.looseObject({
  id: nonEmpty,
  targetUuid: z.string(),
  targetName: z.string(),
  issuerName: z.string(),
  typeOrdinal: z.number().int(),
  reason: z.string(),
  duration: z.number().int(),
  createdAt: isoTimestamp,
  status: z.string(),
  /** Extension of the reference service: when the punishment was first enforced, null before. */
  started: isoTimestamp.nullable().optional(),
  /** Extension of the reference service: the free-form data it was created with (see evasion-data.ts). */
  data: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type Punishment = z.infer<typeof punishment>;

export const punishmentType = z.looseObject({
  ordinal: z.number().int(),
  title: z.string(),
  category: z.string(),
  enabled: z.boolean(),
});
export type PunishmentType = z.infer<typeof punishmentType>;

export const outcome = z.looseObject({
  action: z.string(),
  duration: z.number().int(),
});
export type Outcome = z.infer<typeof outcome>;

export const reply = z.looseObject({
  id: z.string(),
  authorName: z.string(),
  message: z.string(),
  createdAt: isoTimestamp,
});
export type Reply = z.infer<typeof reply>;

export const ticketSummary = z.looseObject({
  id: z.string(),
  type: z.string(),
  subject: z.string(),
  status: z.string(),
  priority: z.string(),
  creatorUuid: z.string(),
  creatorName: z.string(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type TicketSummary = z.infer<typeof ticketSummary>;

export const ticket = ticketSummary.extend({
  description: z.string(),
  // A bug report has no reported player.
  reportedPlayerUuid: z.string().nullable(),
  reportedPlayerName: z.string().nullable(),
  tags: z.array(z.string()),
  replies: z.array(reply),
});
export type Ticket = z.infer<typeof ticket>;

// ---------------------------------------------------------------- requests

export const previewQuery = z.strictObject({
  playerUuid: uuid,
  typeOrdinal,
});
export type PreviewQuery = z.infer<typeof previewQuery>;

export const MAX_RECENT_HOURS = 8760;
export const recentQuery = z.strictObject({
  hours: z
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(MAX_RECENT_HOURS, `must be at most ${MAX_RECENT_HOURS}`)
    .optional(),
});
export type RecentQuery = z.infer<typeof recentQuery>;

const createFields = {
  targetUuid: uuid,
  issuerName: z.string().optional(),
  issuerId: z.string().optional(),
  reason: z.string().optional(),
  duration: durationMs.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  notes: z.array(z.string()).optional(),
  attachedTicketIds: z.array(z.string()).optional(),
  severity: severity.optional(),
  status: z.string().optional(),
  issuerGrants: staffGrants.optional(),
  issuerWeight: immunityWeight.optional(),
};

export const createPunishmentBody = z.strictObject({
  ...createFields,
  type_ordinal: typeOrdinal,
});
export type CreatePunishmentBody = z.infer<typeof createPunishmentBody>;

export const dynamicCreateBody = z.strictObject({
  ...createFields,
  typeOrdinal,
  issuerName: nonEmpty,
});
export type DynamicCreateBody = z.infer<typeof dynamicCreateBody>;

export const punishmentIdParam = nonEmpty;

export const addEvidenceBody = z.strictObject({
  issuerName: nonEmpty,
  evidenceUrl: httpUrl,
});
export type AddEvidenceBody = z.infer<typeof addEvidenceBody>;

/** Extension: `POST /punishments/{punishmentId}/pardon`, modelled on the hosted panel's pardon route. */
export const pardonBody = z.strictObject({
  issuerName: nonEmpty,
  reason: z.string().max(1000, 'must be at most 1000 characters').optional(),
});
export type PardonBody = z.infer<typeof pardonBody>;

export const acknowledgePunishmentBody = z.strictObject({
  punishmentId: nonEmpty,
  playerUuid: uuid,
  executedAt: isoTimestamp.optional(),
  success: z.boolean(),
  errorMessage: z.string().optional(),
});
export type AcknowledgePunishmentBody = z.infer<typeof acknowledgePunishmentBody>;

export const acknowledgeNotificationsBody = z.strictObject({
  playerUuid: uuid,
  notificationIds: z.array(nonEmpty),
  acknowledgedAt: isoTimestamp.optional(),
});
export type AcknowledgeNotificationsBody = z.infer<typeof acknowledgeNotificationsBody>;

export const ticketIdParam = nonEmpty;
/**
 * Extension: a player reading a ticket. The reference service then answers a ticket this player
 * did not create exactly as one that does not exist; a service that ignores it answers in full.
 */
export const ticketReadQuery = z.strictObject({ readerUuid: uuid.optional() });

// ---------------------------------------------------------------- ticket creation extension

export const TICKET_TYPES = ['player', 'chat', 'bug', 'support', 'appeal', 'application'] as const;
export const ticketType = z.enum(TICKET_TYPES);
export type TicketType = z.infer<typeof ticketType>;
export const TICKET_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const MAX_TICKET_SUBJECT_LENGTH = 200;
export const MAX_TICKET_TEXT_LENGTH = 4000;
export const MAX_PLAYER_NAME_LENGTH = 64;
export const MAX_CHAT_MESSAGES = 100;
export const MAX_CHAT_LINE_LENGTH = 512;
export const MAX_TICKET_TAGS = 20;
export const MAX_TAG_LENGTH = 32;
export const MAX_URL_LENGTH = 2048;

// Control characters would let a player forge lines in a log, a panel or a Discord embed; newlines and tabs are text.
const hasControlCharacters = (text: string, multiline: boolean) =>
  /\p{Cc}/u.test(multiline ? text.replace(/[\n\t]/g, '') : text);

/** Text a player typed: not blank, at most `max` characters, no control characters (lines only when `multiline`). */
export function playerText(max: number, multiline = false) {
  return z
    .string()
    .max(max, `must be at most ${max} characters`)
    .refine((text) => text.trim().length > 0, 'must not be blank')
    .refine(
      (text) => !hasControlCharacters(text, multiline),
      multiline ? 'must not contain control characters' : 'must be one line without control characters',
    );
}

const playerName = playerText(MAX_PLAYER_NAME_LENGTH);

/** One line of chat a server saw, with when. */
export const chatLine = z.strictObject({
  playerName,
  message: playerText(MAX_CHAT_LINE_LENGTH),
  sentAt: isoTimestamp,
});
export type ChatLine = z.infer<typeof chatLine>;

/**
 * A chat report's line as the ticket route takes it: today's object, or a line of text as modl's
 * own plugin sends it (`"[12:00:01] Name: text"`, `"Name: text"` or the text alone).
 */
export const chatMessageInput = z.union([playerText(MAX_CHAT_LINE_LENGTH), chatLine], {
  error: 'must be a chat line (playerName, message, sentAt) or a line of text',
});

/** Body of the ticket creation extension, with the hosted panel's field names. */
export const createTicketBody = z.strictObject({
  creatorUuid: uuid,
  creatorName: playerName,
  type: ticketType,
  subject: playerText(MAX_TICKET_SUBJECT_LENGTH),
  description: playerText(MAX_TICKET_TEXT_LENGTH, true),
  reportedPlayerUuid: uuid.optional(),
  reportedPlayerName: playerName.optional(),
  priority: z.enum(TICKET_PRIORITIES).optional(),
  createdServer: playerText(MAX_PLAYER_NAME_LENGTH).optional(),
  chatMessages: z
    .array(chatMessageInput)
    .max(MAX_CHAT_MESSAGES, `must hold at most ${MAX_CHAT_MESSAGES} lines`)
    .optional(),
  tags: z
    .array(playerText(MAX_TAG_LENGTH))
    .max(MAX_TICKET_TAGS, `must hold at most ${MAX_TICKET_TAGS} tags`)
    .optional(),
  replayUrl: httpUrl
    .refine((url) => url.length <= MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
    .optional(),
});
export type CreateTicketBody = z.infer<typeof createTicketBody>;

export const createTicketResponse = z.looseObject({
  status: z.number().int(),
  success: z.boolean(),
  ticketId: nonEmpty,
  message: z.string(),
});
export type CreateTicketResponse = z.infer<typeof createTicketResponse>;

/** A player's reply to their own ticket. */
export const ticketReplyBody = z.strictObject({
  playerUuid: uuid,
  playerName,
  message: playerText(MAX_TICKET_TEXT_LENGTH, true),
});
export type TicketReplyBody = z.infer<typeof ticketReplyBody>;

export const ticketReplyResponse = z.looseObject({
  status: z.number().int(),
  success: z.boolean(),
  replyId: nonEmpty,
  message: z.string(),
});
export type TicketReplyResponse = z.infer<typeof ticketReplyResponse>;

export const MIGRATION_STATUSES = ['building_json', 'uploading_json', 'processing', 'completed', 'failed'] as const;
export const migrationStatus = z.enum(MIGRATION_STATUSES);
export type MigrationStatus = z.infer<typeof migrationStatus>;
export const MAX_MIGRATION_MESSAGE_LENGTH = 1000;

export const migrationProgressBody = z
  .strictObject({
    status: migrationStatus,
    message: z.string().max(MAX_MIGRATION_MESSAGE_LENGTH, `must be at most ${MAX_MIGRATION_MESSAGE_LENGTH} characters`),
    processed: z.number().int().min(0).optional(),
    total: z.number().int().min(0).optional(),
  })
  .refine((body) => body.processed === undefined || body.total === undefined || body.processed <= body.total, {
    message: 'must not exceed total',
    path: ['processed'],
  });
export type MigrationProgressBody = z.infer<typeof migrationProgressBody>;

/** Extension: `POST /players/login`. */
export const playerLoginBody = z.strictObject({
  uuid,
  name: z.string().min(1, 'must not be empty').max(16, 'must be at most 16 characters'),
});
export type PlayerLoginBody = z.infer<typeof playerLoginBody>;

/** Extension: `GET /players/lookup?name=...`, a player the service knows by name (any case). */
export const playerLookupQuery = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(32, 'must be at most 32 characters'),
});
export type PlayerLookupQuery = z.infer<typeof playerLookupQuery>;

/** `player` is null when the service knows no player of that name. */
export const playerLookupResponse = z.looseObject({
  player: z.looseObject({ uuid, name: z.string() }).nullable(),
});
export type PlayerLookupResponse = z.infer<typeof playerLookupResponse>;

/**
 * Extension: `POST /player/login`, the login check. `skinHash` and `ipInfo` are sent by the hosted
 * panel's own plugin; the reference service accepts and ignores them.
 */
export const loginCheckBody = z.strictObject({
  minecraftUuid: uuid,
  username: z.string().min(1, 'must not be empty').max(16, 'must be at most 16 characters'),
  ipAddress: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IPv4 or IPv6 address' }).optional(),
  serverName: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters').optional(),
  skinHash: z.string().optional(),
  ipInfo: z.unknown().optional(),
  weight: immunityWeight.optional(),
});
export type LoginCheckBody = z.infer<typeof loginCheckBody>;

/** Extension: `GET /players/{uuid}/linked`, paged. */
export const MAX_LINKED_PAGE_SIZE = 100;
/** `page` (from 1) and `pageSize` (at most `maxPageSize`) of a paged extension query, both optional. */
export function pageQueryFields(maxPageSize: number) {
  return {
    page: z
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(1_000_000, 'must be at most 1000000')
      .optional(),
    pageSize: z
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(maxPageSize, `must be at most ${maxPageSize}`)
      .optional(),
  };
}
export const linkedAccountsQuery = z.strictObject(pageQueryFields(MAX_LINKED_PAGE_SIZE));
export type LinkedAccountsQuery = z.infer<typeof linkedAccountsQuery>;

// ---------------------------------------------------------------- responses

/**
 * Extension of the preview: what the player's next warning does on the network's warning ladder
 * (their live warnings it makes, and the punishment it issues there, or null).
 */
export const nextWarningPreview = z.looseObject({
  ladder: z.string(),
  warnings: z.number().int(),
  triggers: z.looseObject({ typeOrdinal: z.number().int(), title: z.string(), duration: z.number().int() }).nullable(),
});
export type NextWarningPreview = z.infer<typeof nextWarningPreview>;

export const previewResponse = z.looseObject({
  status: z.number().int(),
  success: z.boolean(),
  socialStatus: z.string(),
  gameplayStatus: z.string(),
  socialPoints: z.number().int(),
  gameplayPoints: z.number().int(),
  offenseLevel: z.string(),
  singleSeverity: outcome,
  lenient: outcome,
  regular: outcome,
  aggravated: outcome,
  nextWarning: nextWarningPreview.optional(),
});
export type PreviewResponse = z.infer<typeof previewResponse>;

export const recentResponse = z.looseObject({ punishments: z.array(punishment) });
export type RecentResponse = z.infer<typeof recentResponse>;

export const typesResponse = z.looseObject({ data: z.array(punishmentType) });
export type TypesResponse = z.infer<typeof typesResponse>;

export const dynamicCreateResponse = z.looseObject({ punishmentId: nonEmpty, message: z.string() });
export type DynamicCreateResponse = z.infer<typeof dynamicCreateResponse>;

export const successMessageResponse = z.looseObject({ success: z.boolean(), message: z.string() });
export type SuccessMessageResponse = z.infer<typeof successMessageResponse>;

export const acknowledgePunishmentResponse = z.looseObject({ message: z.string() });
export type AcknowledgePunishmentResponse = z.infer<typeof acknowledgePunishmentResponse>;

export const ticketResponse = z.looseObject({ ticket });
export type TicketResponse = z.infer<typeof ticketResponse>;

export const playerTicketsResponse = z.looseObject({ tickets: z.array(ticketSummary) });
export type PlayerTicketsResponse = z.infer<typeof playerTicketsResponse>;

export const migrationUploadResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  fileSize: z.number().int(),
});
export type MigrationUploadResponse = z.infer<typeof migrationUploadResponse>;

export const successResponse = z.looseObject({ success: z.boolean() });
export type SuccessResponse = z.infer<typeof successResponse>;

export const pendingNotification = z.looseObject({
  id: nonEmpty,
  message: z.string(),
  type: z.string(),
  createdAt: isoTimestamp,
});
export type PendingNotification = z.infer<typeof pendingNotification>;

/** Answer of the login check: every active punishment of the player, however old, and unread notices. */
export const loginCheckResponse = z.looseObject({
  success: z.boolean(),
  message: z.string(),
  activePunishments: z.array(punishment),
  pendingNotifications: z.array(pendingNotification),
});
export type LoginCheckResponse = z.infer<typeof loginCheckResponse>;

export const linkedAccount = z.looseObject({
  uuid: z.string(),
  name: z.string(),
  /** Addresses both accounts used, with when this account was last seen on each. */
  sharedIps: z.array(z.looseObject({ ipAddress: z.string(), lastSeenAt: isoTimestamp })),
  activePunishments: z.array(punishment),
});
export type LinkedAccount = z.infer<typeof linkedAccount>;

/** Answer of the linked accounts extension: one page, most recently seen first. */
export const linkedAccountsResponse = z.looseObject({
  success: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
  accounts: z.array(linkedAccount),
});
export type LinkedAccountsResponse = z.infer<typeof linkedAccountsResponse>;

/** Every non-2xx body of a conforming service (docs/contract/service-semantics.md); all fields optional when read. */
export const errorBody = z.looseObject({
  status: z.number().int().optional(),
  success: z.boolean().optional(),
  error: z.string().optional(),
  message: z.string().optional(),
  retryAfterSeconds: z.number().nonnegative().optional(),
});
export type ErrorBody = z.infer<typeof errorBody>;

// ---------------------------------------------------------------- stream extension

/** The first stream protocol: a full snapshot at every connection, frames without sequences. */
export const STREAM_PROTOCOL = 1;
/** The resuming protocol (asked for with `?protocol=2`): sequences, resume, paged snapshots, `caught-up`. */
export const STREAM_PROTOCOL_RESUMING = 2;
const sequence = z.number().int().nonnegative();
export const streamFrame = z.discriminatedUnion('type', [
  z.looseObject({
    type: z.literal('hello'),
    protocol: z.number().int(),
    epoch: z.string().min(1).optional(),
    sequence: sequence.optional(),
    resumed: z.boolean().optional(),
  }),
  z.looseObject({
    type: z.literal('snapshot'),
    punishments: z.array(punishment),
    sequence: sequence.optional(),
    page: z.number().int().nonnegative().optional(),
    last: z.boolean().optional(),
  }),
  z.looseObject({ type: z.literal('punishment'), punishment, sequence: sequence.optional() }),
  z.looseObject({ type: z.literal('caught-up'), sequence }),
]);
export type StreamFrame = z.infer<typeof streamFrame>;
