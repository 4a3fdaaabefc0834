import type { Kysely } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/**
 * Staff held to account (issue 34, point 4): what each panel role may issue (the longest ban and
 * mute, punishments an hour). What one issuer issued in a range is read
 * through the punishments' (network, created_at) index: an index led by the issuer would be
 * chosen by PostgreSQL's skip scan for the dashboard's per-day counts instead of theirs.
 */
export async function addStaffLimits(db: Db, choices: DialectChoices): Promise<void> {
  const { bigint } = choices.schema;
  await choices.schema
    .keyedOnly(db.schema.createTable('service_staff_role_limits'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    // null: no limit of that kind; -1 is never stored (a permanent limit is no limit).
    .addColumn('ban_max_ms', bigint)
    .addColumn('mute_max_ms', bigint)
    .addColumn('hourly_max', 'integer')
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_staff_role_limits_pk', ['network_id', 'role'])
    .execute();
}
