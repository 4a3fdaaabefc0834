import { z } from 'zod';
import { isoTimestamp, uuid } from './schemas.js';

/**
 * The chat log extension: a server sends its players' chat lines and commands in batches, which
 * the service keeps per network for its staff (docs/contract/extensions.md, "Chat log"). Every
 * outcome is a 200 or a 400, so a 404 always means the route is not offered.
 */

/** Lines in one batch. */
export const MAX_CHAT_LOG_ENTRIES = 500;
/** Longest batch id the plugin makes. */
export const MAX_CHAT_LOG_BATCH_ID_LENGTH = 64;
/** Longest line or command kept. */
export const MAX_CHAT_LOG_TEXT_LENGTH = 256;
/** Characters of a player's name a chat-log entry holds at most. */
export const MAX_CHAT_LOG_PLAYER_NAME_LENGTH = 16;

export const CHAT_LOG_KINDS = ['chat', 'command'] as const;
export type ChatLogKind = (typeof CHAT_LOG_KINDS)[number];

/** One line a player said or one command they ran. */
export const chatLogEntry = z.strictObject({
  playerUuid: uuid,
  playerName: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_CHAT_LOG_PLAYER_NAME_LENGTH, `must be at most ${MAX_CHAT_LOG_PLAYER_NAME_LENGTH} characters`),
  kind: z.enum(CHAT_LOG_KINDS),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_CHAT_LOG_TEXT_LENGTH, `must be at most ${MAX_CHAT_LOG_TEXT_LENGTH} characters`),
  /** When the server saw it. */
  at: isoTimestamp,
});
export type ChatLogEntry = z.infer<typeof chatLogEntry>;

/** `POST chat-log`. */
export const chatLogBody = z.strictObject({
  /** Made by the plugin, unique per batch: a batch sent again (the outbox retries) is stored once. */
  batchId: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_CHAT_LOG_BATCH_ID_LENGTH, `must be at most ${MAX_CHAT_LOG_BATCH_ID_LENGTH} characters`),
  entries: z
    .array(chatLogEntry)
    .min(1, 'must hold at least one entry')
    .max(MAX_CHAT_LOG_ENTRIES, `must hold at most ${MAX_CHAT_LOG_ENTRIES} entries`),
});
export type ChatLogBody = z.infer<typeof chatLogBody>;

/** `accepted`: the entries of the batch, also when it had been stored before. */
export const chatLogResponse = z.looseObject({
  success: z.literal(true),
  accepted: z.number().int().nonnegative(),
});
export type ChatLogResponse = z.infer<typeof chatLogResponse>;
