import type { Statement } from 'better-sqlite3';
import type { Db } from '../../src/db/open-db.js';

export interface SeenPlayer {
  uuid: string;
  name: string;
  lastSeenAt: number;
}

interface PlayerRow {
  uuid: string;
  name: string;
  last_seen_at: number;
}

/** Players this server has seen, to resolve offline players by name. */
export class PlayerStore {
  readonly #upsert: Statement;
  readonly #byName: Statement<[string], PlayerRow>;
  readonly #byUuid: Statement<[string], PlayerRow>;

  constructor(db: Db) {
    this.#upsert = db.prepare(`
      INSERT INTO cache_players (uuid, name, name_lower, last_seen_at) VALUES (@uuid, @name, @nameLower, @lastSeenAt)
      ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, name_lower = excluded.name_lower,
        last_seen_at = excluded.last_seen_at`);
    // Names move between accounts: the most recent holder of a name wins.
    this.#byName = db.prepare(
      'SELECT uuid, name, last_seen_at FROM cache_players WHERE name_lower = ? ORDER BY last_seen_at DESC LIMIT 1',
    );
    this.#byUuid = db.prepare('SELECT uuid, name, last_seen_at FROM cache_players WHERE uuid = ?');
  }

  recordSeen(uuid: string, name: string, at: number): void {
    this.#upsert.run({ uuid: uuid.toLowerCase(), name, nameLower: name.toLowerCase(), lastSeenAt: at });
  }

  byName(name: string): SeenPlayer | undefined {
    const row = this.#byName.get(name.toLowerCase());
    return row ? { uuid: row.uuid, name: row.name, lastSeenAt: row.last_seen_at } : undefined;
  }

  byUuid(uuid: string): SeenPlayer | undefined {
    const row = this.#byUuid.get(uuid.toLowerCase());
    return row ? { uuid: row.uuid, name: row.name, lastSeenAt: row.last_seen_at } : undefined;
  }
}
