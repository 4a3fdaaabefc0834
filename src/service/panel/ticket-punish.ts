import { z } from 'zod';
import { storedId } from '../limits.js';

/** Longest reply staff may write (the ticket page's reply form). */
export const MAX_REPLY_LENGTH = 4000;

/** What the reporter is told when "punish and close" is sent with the reply left empty. */
export const DEFAULT_CLOSE_REPLY = 'Thank you for your report: we have acted on it.';

/**
 * The fields the ticket page adds to the punish form: the ticket it answers and, for "punish and
 * close", the reply its reporter is told in game.
 */
export const ticketPunishFields = z.object({
  ticketId: storedId.optional(),
  close: z.literal('yes').optional(),
  closeReply: z
    .string()
    .trim()
    .max(MAX_REPLY_LENGTH, `must be at most ${MAX_REPLY_LENGTH} characters`)
    .optional()
    .transform((text) => (text ? text : DEFAULT_CLOSE_REPLY)),
});
export type TicketPunishFields = z.infer<typeof ticketPunishFields>;
