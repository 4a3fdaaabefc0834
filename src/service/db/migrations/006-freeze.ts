import type { Kysely } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/** Players staff froze, one row each while frozen (an unfreeze deletes it; the audit log keeps both). */
export async function createFreezes(db: Db, choices: DialectChoices): Promise<void> {
  const { bigint } = choices.schema;
  await db.schema
    .createTable('service_freezes')
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('player_uuid', 'text', (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('issuer_name', 'text', (c) => c.notNull())
    // The server whose key froze the player; null when frozen from the panel.
    .addColumn('server_name', 'text')
    .addColumn('frozen_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_freezes_pk', ['network_id', 'player_uuid'])
    .execute();
  await db.schema
    .createIndex('service_freezes_newest')
    .on('service_freezes')
    .columns(['network_id', 'frozen_at'])
    .execute();
}
