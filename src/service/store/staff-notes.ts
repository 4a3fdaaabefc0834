import { sql as raw } from 'kysely';
import { prepare, type SqlContext } from '../db/prepared.js';
import type { NewStaffNote, NoteSubjectKind, StaffNote, StaffNoteStorePort } from './ports/staff-notes.js';

type NoteRow = StaffNote;
type Subject = { networkId: number; kind: NoteSubjectKind; subjectId: string };
type Keyed = { networkId: number; id: number };

const NOTE_COLUMNS = [
  'n.id as id',
  'n.subject_kind as subjectKind',
  'n.subject_id as subjectId',
  'n.author_name as authorName',
  'n.author_via as authorVia',
  'n.text as text',
  'n.created_at as createdAtMs',
  'n.edited_at as editedAtMs',
] as const;

/** The statements of {@link StaffNoteStore}; the query-plan tests check each one's plan. */
export const STAFF_NOTE_STATEMENTS = {
  insert: prepare<NewStaffNote & { networkId: number }, { id: number }>('staffNotes.insert', ({ db }, p) =>
    db
      .insertInto('service_staff_notes')
      .values({
        network_id: p.networkId,
        subject_kind: p.subjectKind,
        subject_id: p.subjectId,
        author_name: p.authorName,
        author_via: p.authorVia,
        text: p.text,
        created_at: p.createdAtMs,
      })
      .returning('id'),
  ),
  byId: prepare<Keyed, NoteRow>('staffNotes.byId', ({ db }, p) =>
    db
      .selectFrom('service_staff_notes as n')
      .select(NOTE_COLUMNS)
      .where('n.network_id', '=', p.networkId)
      .where('n.id', '=', p.id),
  ),
  ofSubject: prepare<Subject & { limit: number }, NoteRow>('staffNotes.ofSubject', ({ db }, p) =>
    db
      .selectFrom('service_staff_notes as n')
      .select(NOTE_COLUMNS)
      .where('n.network_id', '=', p.networkId)
      .where('n.subject_kind', '=', p.kind)
      .where('n.subject_id', '=', p.subjectId)
      .orderBy('n.id', 'desc')
      .limit(p.limit),
  ),
  countOfSubject: prepare<Subject, { total: number }>('staffNotes.countOfSubject', ({ db }, p) =>
    db
      .selectFrom('service_staff_notes')
      .select(raw<number>`count(*)`.as('total'))
      .where('network_id', '=', p.networkId)
      .where('subject_kind', '=', p.kind)
      .where('subject_id', '=', p.subjectId),
  ),
  // The player's punishments through their index, then each one's comments through theirs.
  commentsOnTarget: prepare<{ networkId: number; uuid: string; limit: number }, NoteRow>(
    'staffNotes.commentsOnTarget',
    ({ db }, p) =>
      db
        .selectFrom('service_staff_notes as n')
        .select(NOTE_COLUMNS)
        .where('n.network_id', '=', p.networkId)
        .where('n.subject_kind', '=', raw.lit('punishment'))
        .where(
          'n.subject_id',
          'in',
          db
            .selectFrom('service_punishments')
            .select('id')
            .where('network_id', '=', p.networkId)
            .where('target_uuid', '=', p.uuid),
        )
        .orderBy('n.id')
        .limit(p.limit),
  ),
  edit: prepare<Keyed & { text: string; editedAtMs: number }, never>('staffNotes.edit', ({ db }, p) =>
    db
      .updateTable('service_staff_notes')
      .set({ text: p.text, edited_at: p.editedAtMs })
      .where('network_id', '=', p.networkId)
      .where('id', '=', p.id),
  ),
  remove: prepare<Keyed, never>('staffNotes.remove', ({ db }, p) =>
    db.deleteFrom('service_staff_notes').where('network_id', '=', p.networkId).where('id', '=', p.id),
  ),
};

const q = STAFF_NOTE_STATEMENTS;

/** Staff notes on players and comments on punishments (one table, told apart by `subject_kind`). */
export class StaffNoteStore implements StaffNoteStorePort {
  constructor(private readonly sql: SqlContext) {}

  async add(networkId: number, note: NewStaffNote): Promise<number> {
    const row = await q.insert.first(this.sql, { networkId, ...note });
    return Number(row!.id);
  }

  find(networkId: number, id: number): Promise<StaffNote | undefined> {
    return q.byId.first(this.sql, { networkId, id });
  }

  of(networkId: number, kind: NoteSubjectKind, subjectId: string, limit: number): Promise<StaffNote[]> {
    return q.ofSubject.all(this.sql, { networkId, kind, subjectId, limit });
  }

  async count(networkId: number, kind: NoteSubjectKind, subjectId: string): Promise<number> {
    return Number((await q.countOfSubject.first(this.sql, { networkId, kind, subjectId }))?.total ?? 0);
  }

  commentsOnTarget(networkId: number, targetUuid: string, limit: number): Promise<StaffNote[]> {
    return q.commentsOnTarget.all(this.sql, { networkId, uuid: targetUuid, limit });
  }

  async edit(networkId: number, id: number, text: string, editedAtMs: number): Promise<boolean> {
    return (await q.edit.run(this.sql, { networkId, id, text, editedAtMs })) > 0;
  }

  async remove(networkId: number, id: number): Promise<boolean> {
    return (await q.remove.run(this.sql, { networkId, id })) > 0;
  }
}
