import type { Statement } from 'better-sqlite3';
import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';

/**
 * A punishment issued here while the service was unreachable is applied at once under a local
 * id (`local-...`) and its creation queued in the outbox. Its acknowledgements wait until the
 * service's copy arrives by sync and takes its place (sync/adopt-local.ts).
 */
export const LOCAL_ID_PREFIX = 'local-';

export function isLocalId(id: string): boolean {
  return id.startsWith(LOCAL_ID_PREFIX);
}

const CREATION_KEY_PREFIX = 'punish:';

/** The outbox key of a creation issued here; the service gets it as its `Idempotency-Key`. */
export function creationIdempotencyKey(creationId: string): string {
  return `${CREATION_KEY_PREFIX}${creationId}`;
}

/** The local id the creation's punishment is applied under while it waits in the outbox. */
export function localIdOfCreation(creationId: string): string {
  return `${LOCAL_ID_PREFIX}${creationId}`;
}

/** The local id of the punishment a creation with this outbox key was applied under, if it was one of ours. */
export function localIdOfCreationKey(idempotencyKey: string): string | undefined {
  return idempotencyKey.startsWith(CREATION_KEY_PREFIX)
    ? localIdOfCreation(idempotencyKey.slice(CREATION_KEY_PREFIX.length))
    : undefined;
}

const COMPONENT = 'local-creations';

/** Its own migration component, so it never competes for the cache's version numbers. */
const MIGRATIONS = [
  {
    version: 1,
    name: 'lifts of punishments the service has not created yet',
    up: `
      CREATE TABLE local_pardons (
        local_id TEXT PRIMARY KEY,
        issuer_name TEXT NOT NULL,
        reason TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  },
];

export interface LocalPardon {
  issuerName: string;
  reason: string;
}

/** Who lifted a punishment that still had a local id, to send as a pardon once it has the service's id. */
export class LocalPardons {
  readonly #insert: Statement<{ localId: string; issuerName: string; reason: string }>;
  readonly #byId: Statement<[string], { issuer_name: string; reason: string }>;
  readonly #delete: Statement<[string]>;

  constructor(db: Db) {
    applySchemaMigrations(db, COMPONENT, MIGRATIONS);
    this.#insert = db.prepare(
      'INSERT OR REPLACE INTO local_pardons (local_id, issuer_name, reason) VALUES (@localId, @issuerName, @reason)',
    );
    this.#byId = db.prepare('SELECT issuer_name, reason FROM local_pardons WHERE local_id = ?');
    this.#delete = db.prepare('DELETE FROM local_pardons WHERE local_id = ?');
  }

  record(localId: string, pardon: LocalPardon): void {
    this.#insert.run({ localId, ...pardon });
  }

  /** The recorded pardon, removed (call inside the adopting transaction). */
  take(localId: string): LocalPardon | undefined {
    const row = this.#byId.get(localId);
    if (!row) return undefined;
    this.#delete.run(localId);
    return { issuerName: row.issuer_name, reason: row.reason };
  }
}
