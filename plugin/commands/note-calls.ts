import { isApiError } from '../../src/api/errors.js';

/** A 404 from the notes routes: the service does not offer staff notes (every other outcome is a 200 or 400). */
export const notesNotOffered = (error: unknown): boolean =>
  isApiError(error) && error.kind === 'http' && error.status === 404;

/** Holders may add notes with /note; /notes and the count of /check read them. */
export const NOTE_PERMISSION = 'bailiff.note';
