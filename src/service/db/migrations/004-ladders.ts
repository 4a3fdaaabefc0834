import type { Kysely } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/**
 * Warning ladders: a network's one ladder (its name and how long a warning counts) and its steps,
 * one per number of live warnings. The steps' key is that number, so two steps at one threshold
 * cannot be stored.
 */
export async function createWarningLadders(db: Db, d: DialectChoices): Promise<void> {
  const { bigint } = d.schema;
  await db.schema
    .createTable('service_warning_ladders')
    .addColumn('network_id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('warning_lifetime_ms', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('service_warning_ladder_steps')
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('warnings', 'integer', (c) => c.notNull())
    .addColumn('type_ordinal', 'integer', (c) => c.notNull())
    .addColumn('duration', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_warning_ladder_steps_pk', ['network_id', 'warnings'])
    .addForeignKeyConstraint(
      'service_warning_ladder_steps_ladder_fk',
      ['network_id'],
      'service_warning_ladders',
      ['network_id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
}
