import { z } from 'zod';
import type { ServiceContext } from '../context.js';
import type { StaffNote } from '../store/ports/staff-notes.js';
import type { Staff } from './staff-session.js';

/** Longest note or comment, in characters. */
export const MAX_NOTE_LENGTH = 1000;
/** Most notes the player page lists (the count says how many there are). */
export const NOTES_SHOWN = 100;
/** Most comments read for one player's punishments. */
const COMMENTS_READ = 2000;

/** A note or comment as the panel's forms post it. */
export const noteForm = z.object({
  text: z
    .string({ message: 'write the note' })
    .trim()
    .min(1, 'write the note')
    .max(MAX_NOTE_LENGTH, `at most ${MAX_NOTE_LENGTH} characters`),
});

/**
 * Whether a staff member may edit or delete a note: its author (a panel account of that name; a
 * note written in game has no panel author) or a holder of `manage-notes`.
 */
export function mayChangeNote(staff: Staff, note: Pick<StaffNote, 'authorName' | 'authorVia'>): boolean {
  if (staff.permissions.has('manage-notes')) return true;
  return note.authorVia === 'panel' && note.authorName === staff.username && staff.permissions.has('punish');
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A note as the player page shows it. */
export interface NoteView {
  id: number;
  authorName: string;
  authorVia: string;
  text: string;
  createdAt: string;
  editedAt: string | null;
  /** The staff member looking may edit and delete it. */
  canChange: boolean;
}

const viewOf =
  (staff: Staff) =>
  (note: StaffNote): NoteView => ({
    id: note.id,
    authorName: note.authorName,
    authorVia: note.authorVia,
    text: note.text,
    createdAt: iso(note.createdAtMs),
    editedAt: note.editedAtMs === null ? null : iso(note.editedAtMs),
    canChange: mayChangeNote(staff, note),
  });

/** The player page's notes on the player and comments on each of their punishments (by punishment id). */
export async function notesOfPlayerPage(context: Pick<ServiceContext, 'stores'>, staff: Staff, uuid: string) {
  const { staffNotes } = context.stores;
  const view = viewOf(staff);
  const notes = (await staffNotes.of(staff.networkId, 'player', uuid, NOTES_SHOWN)).map(view);
  const noteCount = await staffNotes.count(staff.networkId, 'player', uuid);
  const comments: Record<string, NoteView[]> = {};
  for (const comment of await staffNotes.commentsOnTarget(staff.networkId, uuid, COMMENTS_READ)) {
    const list = comments[comment.subjectId] ?? [];
    list.push(view(comment));
    comments[comment.subjectId] = list;
  }
  return { notes, noteCount, comments };
}
