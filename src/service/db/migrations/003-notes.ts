import { type Kysely, sql } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/**
 * Staff notes on players and comments on punishments (one table: what a note is about is
 * `subject_kind` and `subject_id`), and the indexes the dashboard's staff statistics read: each
 * statistic groups one bounded range of one index by a name the index also holds.
 */
export async function addStaffNotes(db: Db, d: DialectChoices): Promise<void> {
  const { bigint } = d.schema;
  await d.schema
    .withAutoId(db.schema.createTable('service_staff_notes'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    // `player` (subject_id: a UUID) or `punishment` (subject_id: a punishment id).
    .addColumn('subject_kind', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    // `panel` (a panel username) or `game` (an in-game name, through a server's key).
    .addColumn('author_via', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('edited_at', bigint)
    .execute();
  await db.schema
    .createIndex('service_staff_notes_subject')
    .on('service_staff_notes')
    .columns(['network_id', 'subject_kind', 'subject_id', 'id'])
    .execute();
  // The dashboard's index of punishments by time and type also holds the issuer, so the counts per
  // issuer read it alone too (one index rather than two of the same rows); same name, so the
  // statements reading it by name keep doing so.
  await db.schema.dropIndex('service_punishments_created_type').execute();
  await db.schema
    .createIndex('service_punishments_created_type')
    .on('service_punishments')
    .columns(['network_id', 'created_at', 'type_ordinal', 'issuer_name'])
    .execute();
  await db.schema
    .createIndex('service_tickets_status_updated_assignee')
    .on('service_tickets')
    .columns(['network_id', 'status', 'updated_at', 'assignee_name'])
    .execute();
  // Accepted appeals only: the appeal pages' reads by punishment keep their own index.
  await db.schema
    .createIndex('service_appeals_accepted_decided')
    .on('service_appeals')
    .columns(['network_id', 'decided_at', 'punishment_id'])
    .where(sql<boolean>`status = 'accepted'`)
    .execute();
}
