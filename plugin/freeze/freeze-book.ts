import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations, type SchemaMigration } from '../../src/db/schema-migrations.js';

/**
 * `network`: the service keeps it (its list of frozen players replaces these at each poll);
 * `local`: made here while the service did not take it (no freeze route, or unreachable).
 */
export type FreezeScope = 'network' | 'local';

/** One frozen player as this server knows them. */
export interface FreezeEntry {
  /** Lower case. */
  uuid: string;
  name: string;
  reason: string;
  issuer: string;
  frozenAt: number;
  scope: FreezeScope;
}

/** The freeze book's own component in `schema_migrations` (versions of its own, beside the cache's). */
export const FREEZE_COMPONENT = 'freeze';

export const FREEZE_SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    name: 'frozen players',
    up: `
      CREATE TABLE freeze_players (
        uuid TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        reason TEXT NOT NULL,
        issuer TEXT NOT NULL,
        frozen_at INTEGER NOT NULL,
        scope TEXT NOT NULL CHECK (scope IN ('network', 'local'))
      );
    `,
  },
];

interface Row {
  uuid: string;
  name: string;
  reason: string;
  issuer: string;
  frozen_at: number;
  scope: FreezeScope;
}

/**
 * The players frozen here, in memory (asked on every move, chat line and command) and in
 * `bailiff.db`, so a freeze outlasts a rejoin and a restart.
 */
export class FreezeBook {
  readonly #entries = new Map<string, FreezeEntry>();
  readonly #upsert;
  readonly #delete;

  constructor(db: Db) {
    applySchemaMigrations(db, FREEZE_COMPONENT, FREEZE_SCHEMA_MIGRATIONS);
    this.#upsert = db.prepare<Row>(
      `INSERT INTO freeze_players (uuid, name, reason, issuer, frozen_at, scope)
       VALUES (@uuid, @name, @reason, @issuer, @frozen_at, @scope)
       ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, reason = excluded.reason,
         issuer = excluded.issuer, frozen_at = excluded.frozen_at, scope = excluded.scope`,
    );
    this.#delete = db.prepare<[string]>('DELETE FROM freeze_players WHERE uuid = ?');
    for (const row of db.prepare<[], Row>('SELECT * FROM freeze_players').all()) {
      this.#entries.set(row.uuid, { ...row, frozenAt: row.frozen_at });
    }
  }

  get(uuid: string): FreezeEntry | undefined {
    return this.#entries.get(uuid.toLowerCase());
  }

  isFrozen(uuid: string): boolean {
    return this.#entries.has(uuid.toLowerCase());
  }

  /** Newest first. */
  list(): FreezeEntry[] {
    return [...this.#entries.values()].sort((a, b) => b.frozenAt - a.frozenAt || a.uuid.localeCompare(b.uuid));
  }

  put(entry: FreezeEntry): void {
    const stored = { ...entry, uuid: entry.uuid.toLowerCase() };
    this.#upsert.run({ ...stored, frozen_at: stored.frozenAt });
    this.#entries.set(stored.uuid, stored);
  }

  remove(uuid: string): FreezeEntry | undefined {
    const key = uuid.toLowerCase();
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#delete.run(key);
    this.#entries.delete(key);
    return entry;
  }

  /**
   * Makes the network's freezes those of `frozen` (the service's list): returns who became frozen
   * and who was unfrozen elsewhere. Local freezes stay, unless the list has them (they become network ones).
   */
  replaceNetwork(frozen: readonly Omit<FreezeEntry, 'scope'>[]): { added: FreezeEntry[]; removed: FreezeEntry[] } {
    const listed = new Map(frozen.map((entry) => [entry.uuid.toLowerCase(), entry]));
    const added: FreezeEntry[] = [];
    const removed: FreezeEntry[] = [];
    for (const entry of [...this.#entries.values()]) {
      if (entry.scope === 'network' && !listed.has(entry.uuid)) {
        this.remove(entry.uuid);
        removed.push(entry);
      }
    }
    for (const [uuid, entry] of listed) {
      const known = this.#entries.get(uuid);
      if (known?.scope === 'network' && known.reason === entry.reason && known.issuer === entry.issuer) continue;
      const next: FreezeEntry = { ...entry, uuid, scope: 'network' };
      this.put(next);
      if (!known) added.push(next);
    }
    return { added, removed };
  }
}
