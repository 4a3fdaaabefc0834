import { type Kysely, sql } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

const DAY_MS = 86_400_000;

/**
 * Immunity weights (issue 34, point 4): each panel role's weight (built-in roles too, so it is
 * kept apart from the custom roles' rows) and each player's weight as the servers last reported it
 * at the login check (`bailiff.weight.<n>`). A weight of 0 is never stored: no row is weight 0.
 * With them, the staff statistics' punishments per issuer and UTC day, kept by each creation, so a
 * range is read from a few thousand rows rather than counted from every punishment in it.
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
  await choices.schema
    .keyedOnly(db.schema.createTable('service_staff_issued_days'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('day_ms', bigint, (c) => c.notNull())
    .addColumn('issuer_name', 'text', (c) => c.notNull())
    .addColumn('punishments', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_staff_issued_days_pk', ['network_id', 'day_ms', 'issuer_name'])
    .execute();
  const day = sql<number>`created_at - (created_at % ${sql.lit(DAY_MS)})`;
  await db
    .insertInto('service_staff_issued_days')
    .columns(['network_id', 'day_ms', 'issuer_name', 'punishments'])
    .expression(
      db
        .selectFrom('service_punishments')
        .select(['network_id', day.as('day_ms'), 'issuer_name', sql<number>`count(*)`.as('punishments')])
        .groupBy(['network_id', day, 'issuer_name']),
    )
    .execute();
}
