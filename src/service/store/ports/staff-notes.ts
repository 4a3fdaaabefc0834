/** What a staff note is about: a player (by UUID) or a punishment (by id, a "comment"). */
export type NoteSubjectKind = 'player' | 'punishment';

/** Where a note's author wrote it: the panel (a staff username) or a game server (an in-game name). */
export type NoteAuthorVia = 'panel' | 'game';

export interface NewStaffNote {
  subjectKind: NoteSubjectKind;
  subjectId: string;
  authorName: string;
  authorVia: NoteAuthorVia;
  text: string;
  createdAtMs: number;
}

export interface StaffNote extends NewStaffNote {
  id: number;
  /** When its author (or a holder of `manage-notes`) last changed its text; null: never. */
  editedAtMs: number | null;
}

/** Staff notes on players and comments on punishments, per network; only staff ever read them. */
export interface StaffNoteStorePort {
  /** Stores a note; its id. */
  add(networkId: number, note: NewStaffNote): Promise<number>;
  find(networkId: number, id: number): Promise<StaffNote | undefined>;
  /** The newest notes about one subject, newest first, at most `limit`. */
  of(networkId: number, kind: NoteSubjectKind, subjectId: string, limit: number): Promise<StaffNote[]>;
  /** How many notes one subject has. */
  count(networkId: number, kind: NoteSubjectKind, subjectId: string): Promise<number>;
  /** The comments on a player's punishments (the player page's), oldest first, at most `limit`. */
  commentsOnTarget(networkId: number, targetUuid: string, limit: number): Promise<StaffNote[]>;
  /** Replaces a note's text; false when the network has no such note. */
  edit(networkId: number, id: number, text: string, editedAtMs: number): Promise<boolean>;
  /** Deletes a note; false when the network has no such note. */
  remove(networkId: number, id: number): Promise<boolean>;
}
