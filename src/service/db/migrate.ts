import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import type { DialectChoices } from './dialect/choices.js';
import { createBaseline } from './migrations/001-baseline.js';
import { createTicketPunishments } from './migrations/002-ticket-punishments.js';
import { addStaffNotes } from './migrations/003-notes.js';
import { createWarningLadders } from './migrations/004-ladders.js';
import { addStaffLimits } from './migrations/005-staff-limits.js';
import { createFreezes } from './migrations/006-freeze.js';
import { createChatLogs } from './migrations/007-chat-logs.js';
import { createImmunityWeights } from './migrations/008-immunity.js';
import { addChatSearchIndex } from './migrations/009-chat-search.js';
import { adoptLegacySchema } from './migrations/legacy.js';

/** Where the migrator records what it applied (Kysely's own table, named for the service). */
export const MIGRATION_TABLE = 'service_kysely_migrations';
const MIGRATION_LOCK_TABLE = 'service_kysely_migration_lock';

/**
 * The service's schema history, in order; each step is written once, with Kysely's schema
 * builder, and runs on both databases. A step is never changed once released: a new one is added.
 */
function serviceMigrations(choices: DialectChoices): Record<string, Migration> {
  return {
    '001-baseline': {
      async up(db) {
        if (!(await adoptLegacySchema(db, choices))) await createBaseline(db, choices);
      },
    },
    '002-ticket-punishments': { up: (db) => createTicketPunishments(db, choices) },
    '003-notes': { up: (db) => addStaffNotes(db, choices) },
    '004-ladders': { up: (db) => createWarningLadders(db, choices) },
    '005-staff-limits': { up: (db) => addStaffLimits(db, choices) },
    '006-freeze': { up: (db) => createFreezes(db, choices) },
    '007-chat-logs': { up: (db) => createChatLogs(db, choices) },
    '008-immunity': { up: (db) => createImmunityWeights(db, choices) },
    '009-chat-search': { up: (db) => addChatSearchIndex(db) },
  };
}

/** The names of the service's schema steps, oldest first. */
export function serviceStepNames(choices: DialectChoices): string[] {
  return Object.keys(serviceMigrations(choices));
}

/**
 * The applied steps (by name) against the ones this Bailiff knows: `behind` when some never ran,
 * `ahead` when a newer Bailiff applied steps this one does not know.
 */
export function compareSteps(applied: Iterable<string>, choices: DialectChoices): 'current' | 'behind' | 'ahead' {
  const appliedSet = new Set(applied);
  const known = new Set(Object.keys(serviceMigrations(choices)));
  if ([...appliedSet].some((name) => !known.has(name))) return 'ahead';
  if ([...known].some((name) => !appliedSet.has(name))) return 'behind';
  return 'current';
}

/** {@link compareSteps} of the database: a round trip, which throws when the database cannot be reached. */
export async function schemaStatusOf(
  // biome-ignore lint/suspicious/noExplicitAny: the migrator's table is not one of the service's
  db: Kysely<any>,
  choices: DialectChoices,
): Promise<'current' | 'behind' | 'ahead'> {
  const rows: Array<{ name: string }> = await db.selectFrom(MIGRATION_TABLE).select('name').execute();
  return compareSteps(
    rows.map((row) => row.name),
    choices,
  );
}

/** Thrown when the schema cannot be brought up to date; names the step and why. */
export class SchemaMigrationError extends Error {}

/**
 * Brings the service's schema up to date in one transaction (both databases run DDL
 * transactionally), so a failed step leaves nothing half applied. Instances starting together
 * wait for each other on the migrator's lock, so one migrates and the others find it done.
 * Returns the steps applied now.
 */
// biome-ignore lint/suspicious/noExplicitAny: the migrator works below the typed tables
export async function migrateServiceSchema(db: Kysely<any>, choices: DialectChoices): Promise<string[]> {
  const migrations = serviceMigrations(choices);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    const problem = error instanceof Error ? error.message : String(error);
    const newer = /previously executed migration .* is missing/.test(problem);
    throw new SchemaMigrationError(
      newer
        ? `the database's schema is newer than this version of Bailiff knows (${problem}): upgrade Bailiff`
        : `schema step ${failed?.migrationName ?? '(before any step)'} failed: ${problem}`,
      { cause: error },
    );
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
