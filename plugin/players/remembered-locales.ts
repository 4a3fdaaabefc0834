import type { Statement } from 'better-sqlite3';
import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';

const COMPONENT = 'remembered-locales';

/** Its own migration component, so it never competes for the cache's version numbers. */
const MIGRATIONS = [
  {
    version: 1,
    name: 'the language each player last used here',
    up: `
      CREATE TABLE player_locales (
        uuid TEXT PRIMARY KEY,
        locale TEXT NOT NULL,
        seen_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
];

/**
 * The language each player's client last reported here, by UUID. A Java client says its language
 * only after login, so a player refused at login (a ban screen) reads the one they last used.
 */
export class RememberedLocales {
  readonly #upsert: Statement<{ uuid: string; locale: string; seenAt: number }>;
  readonly #byUuid: Statement<[string], { locale: string }>;
  /** What is in the table, so a join that changes nothing writes nothing and the login path reads no row. */
  readonly #known = new Map<string, string>();

  constructor(db: Db) {
    applySchemaMigrations(db, COMPONENT, MIGRATIONS);
    this.#upsert = db.prepare(
      `INSERT INTO player_locales (uuid, locale, seen_at) VALUES (@uuid, @locale, @seenAt)
       ON CONFLICT (uuid) DO UPDATE SET locale = excluded.locale, seen_at = excluded.seen_at`,
    );
    this.#byUuid = db.prepare('SELECT locale FROM player_locales WHERE uuid = ?');
  }

  /** Records the language a player's client reported (nothing when it has not). */
  remember(uuid: string, locale: string | undefined, now: number): void {
    if (locale === undefined) return;
    const key = uuid.toLowerCase();
    if (this.#known.get(key) === locale) return;
    this.#upsert.run({ uuid: key, locale, seenAt: now });
    this.#known.set(key, locale);
  }

  /** The language the player last used here, if any. */
  lastOf(uuid: string): string | undefined {
    const key = uuid.toLowerCase();
    const known = this.#known.get(key);
    if (known !== undefined) return known;
    return this.#byUuid.get(key)?.locale;
  }

  /** Forgets the in-memory copy of a player who left (the row stays). */
  release(uuid: string): void {
    this.#known.delete(uuid.toLowerCase());
  }
}
