import { z } from 'zod';
import { evasionData } from '../contract/evasion-data.js';
import { ticket } from '../contract/schemas.js';

/**
 * Longest id the service stores (punishments, tickets, replies) and so the longest id a path
 * may carry; a longer path id is a 400 after authentication, never a 414 before it.
 */
export const MAX_ID_LENGTH = 256;

/** Deepest nesting of objects and arrays in any JSON body, counted from the top-level field's value. */
export const MAX_JSON_DEPTH = 32;

/** Largest `data` of a punishment, as JSON text (UTF-8 bytes). */
export const MAX_DATA_BYTES = 65_536;

/** An id as the service stores it. */
export const storedId = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_ID_LENGTH, `must be at most ${MAX_ID_LENGTH} characters`);

/**
 * A punishment's free-form `data`, at most {@link MAX_DATA_BYTES} as JSON (its depth is bounded for
 * every body), whose ban-evasion fields (`ipAddress`, `altBlocking`, `linkedBanId`) are well formed.
 */
export const boundedData = z
  .record(z.string(), z.unknown())
  .refine(
    (data) => Buffer.byteLength(JSON.stringify(data)) <= MAX_DATA_BYTES,
    `must be at most ${MAX_DATA_BYTES} bytes as JSON`,
  )
  .pipe(evasionData);

/** A full ticket as the admin API and the seed take it, with ids the service can store. */
export const storedTicket = ticket.extend({
  id: storedId,
  replies: z.array(ticket.shape.replies.element.extend({ id: storedId })),
});
