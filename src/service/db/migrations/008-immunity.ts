import type { Kysely } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/**
 * Immunity weights (issue 34, point 4): each panel role's weight (built-in roles too, so it is
 * kept apart from the custom roles' rows) and each player's weight as the servers last reported it
 * at the login check (`bailiff.weight.<n>`). A weight of 0 is never stored: no row is weight 0.
 */
export async function createImmunityWeights(db: Db, choices: DialectChoices): Promise<void> {
  const { bigint } = choices.schema;
  await choices.schema
    .keyedOnly(db.schema.createTable('service_role_weights'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_role_weights_pk', ['network_id', 'role'])
    .execute();
  await choices.schema
    .keyedOnly(db.schema.createTable('service_player_weights'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('player_uuid', 'text', (c) => c.notNull())
    .addColumn('weight', 'integer', (c) => c.notNull())
    .addColumn('reported_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_player_weights_pk', ['network_id', 'player_uuid'])
    .execute();
}
