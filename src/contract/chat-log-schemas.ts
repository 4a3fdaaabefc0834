import { z } from 'zod';
import { isoTimestamp, uuid } from './schemas.js';

/**
 * The chat-log extension: each game server sends its players' chat lines and commands in
 * batches (docs/contract/extensions.md, "Chat and command logs"). A service without it answers
 * 404, and the plugin then sends nothing.
 */

/** Entries of one batch at most. */
export const MAX_CHAT_LOG_ENTRIES = 500;
/** Characters of one entry's text at most (a longer line is cut by the sender). */
export const MAX_CHAT_LOG_TEXT = 256;
/** Characters of a player's name at most. */
export const MAX_CHAT_LOG_NAME = 16;

export const CHAT_LOG_KINDS = ['chat', 'command'] as const;
export type ChatLogKind = (typeof CHAT_LOG_KINDS)[number];

export const chatLogEntry = z.strictObject({
  playerUuid: uuid,
  playerName: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_CHAT_LOG_NAME, `must be at most ${MAX_CHAT_LOG_NAME} characters`),
  kind: z.enum(CHAT_LOG_KINDS),
  text: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_CHAT_LOG_TEXT, `must be at most ${MAX_CHAT_LOG_TEXT} characters`),
  at: isoTimestamp,
});
export type ChatLogEntry = z.infer<typeof chatLogEntry>;

/** `POST chat-log`: one batch; `batchId` is made by the sender, so a retried batch is stored once. */
export const chatLogBody = z.strictObject({
  batchId: z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
  entries: z
    .array(chatLogEntry)
    .min(1, 'must hold at least one entry')
    .max(MAX_CHAT_LOG_ENTRIES, `must hold at most ${MAX_CHAT_LOG_ENTRIES} entries`),
});
export type ChatLogBody = z.infer<typeof chatLogBody>;

/** `accepted`: the entries of the batch (the same answer when the batch was stored before). */
export const chatLogResponse = z.looseObject({
  success: z.literal(true),
  accepted: z.number().int().min(0),
});
export type ChatLogResponse = z.infer<typeof chatLogResponse>;
