import { z } from 'zod';
import { isoTimestamp, MAX_PLAYER_NAME_LENGTH, playerText, uuid } from './schemas.js';

/**
 * The staff notes extension: a server's staff read and add notes on a player through the server's
 * key (docs/contract/extensions.md, "Staff notes"). Notes are for staff only: no player-facing
 * route or public page ever shows them. Editing and deleting are the panel's.
 */

/** Longest note, in characters (the panel's limit too). */
export const MAX_STAFF_NOTE_LENGTH = 1000;
export const MAX_NOTES_LISTED = 50;
export const DEFAULT_NOTES_LISTED = 10;

/** `GET players/:uuid/notes?limit=`: a player's newest notes (at most `limit`) and how many there are. */
export const playerNotesQuery = z.strictObject({
  limit: z
    .number()
    .int('must be an integer')
    .min(0, 'must be at least 0')
    .max(MAX_NOTES_LISTED, `must be at most ${MAX_NOTES_LISTED}`)
    .optional(),
});
export type PlayerNotesQuery = z.infer<typeof playerNotesQuery>;

export const staffNoteView = z.looseObject({
  id: z.number().int(),
  authorName: z.string(),
  /** `panel` (a panel account) or `game` (an in-game name, through a server's key). */
  authorVia: z.string(),
  text: z.string(),
  createdAt: isoTimestamp,
  editedAt: isoTimestamp.nullable(),
});
export type StaffNoteView = z.infer<typeof staffNoteView>;

export const playerNotesResponse = z.looseObject({
  success: z.boolean(),
  playerUuid: z.string(),
  total: z.number().int(),
  notes: z.array(staffNoteView),
});
export type PlayerNotesResponse = z.infer<typeof playerNotesResponse>;

/** `POST players/:uuid/notes`: a note by the in-game staff member `staffName`. */
export const addPlayerNoteBody = z.strictObject({
  staffName: playerText(MAX_PLAYER_NAME_LENGTH),
  staffUuid: uuid.optional(),
  text: playerText(MAX_STAFF_NOTE_LENGTH),
});
export type AddPlayerNoteBody = z.infer<typeof addPlayerNoteBody>;

export const addPlayerNoteResponse = z.looseObject({
  success: z.boolean(),
  noteId: z.number().int(),
  /** How many notes the player has now. */
  total: z.number().int(),
});
export type AddPlayerNoteResponse = z.infer<typeof addPlayerNoteResponse>;
