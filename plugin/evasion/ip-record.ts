import type { Statement } from 'better-sqlite3';
import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';

const COMPONENT = 'evasion';

/** Its own migration component, so it never competes for the cache's version numbers. */
const MIGRATIONS = [
  {
    version: 1,
    name: 'addresses each player joined from',
    up: `
      CREATE TABLE evasion_player_ips (
        ip TEXT NOT NULL,
        uuid TEXT NOT NULL,
        name TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        PRIMARY KEY (ip, uuid)
      ) WITHOUT ROWID;
      CREATE INDEX evasion_player_ips_player ON evasion_player_ips (uuid, last_seen_at);
      CREATE INDEX evasion_player_ips_age ON evasion_player_ips (last_seen_at);
    `,
  },
];

/** An account seen on an address, and when last. */
export interface SeenOnAddress {
  uuid: string;
  name: string;
  lastSeenAt: number;
}

export interface AddressSeen {
  ip: string;
  lastSeenAt: number;
}

/**
 * This server's own record of the addresses players joined from (canonical text), kept
 * `evasion.keepIpsDays` and pruned: what links accounts when the service cannot, and what
 * `/ban-ip <player>` bans. Never shown to players.
 */
export class IpRecord {
  readonly #upsert: Statement<{ ip: string; uuid: string; name: string; at: number }>;
  readonly #ofPlayer: Statement<[string, number], { ip: string; lastSeenAt: number }>;
  readonly #onAddress: Statement<[string, number], SeenOnAddress>;
  readonly #prune: Statement<[number]>;
  readonly #addresses: Statement<[], { count: number }>;

  constructor(db: Db) {
    applySchemaMigrations(db, COMPONENT, MIGRATIONS);
    this.#upsert = db.prepare(`
      INSERT INTO evasion_player_ips (ip, uuid, name, first_seen_at, last_seen_at) VALUES (@ip, @uuid, @name, @at, @at)
      ON CONFLICT (ip, uuid) DO UPDATE SET name = excluded.name, last_seen_at = max(last_seen_at, excluded.last_seen_at)`);
    this.#ofPlayer = db.prepare(`
      SELECT ip, last_seen_at AS lastSeenAt FROM evasion_player_ips
      WHERE uuid = ? AND last_seen_at >= ? ORDER BY last_seen_at DESC`);
    this.#onAddress = db.prepare(`
      SELECT uuid, name, last_seen_at AS lastSeenAt FROM evasion_player_ips
      WHERE ip = ? AND last_seen_at >= ? ORDER BY last_seen_at DESC`);
    this.#prune = db.prepare('DELETE FROM evasion_player_ips WHERE last_seen_at < ?');
    this.#addresses = db.prepare('SELECT count(DISTINCT ip) AS count FROM evasion_player_ips');
  }

  /** A join (or attempt) of `uuid` from `ip` (canonical text). */
  record(uuid: string, name: string, ip: string, at: number): void {
    this.#upsert.run({ ip, uuid: uuid.toLowerCase(), name, at });
  }

  /** The player's addresses seen since `sinceMs`, most recent first. */
  addressesOf(uuid: string, sinceMs: number): AddressSeen[] {
    return this.#ofPlayer.all(uuid.toLowerCase(), sinceMs);
  }

  /** Accounts seen on `ip` since `sinceMs`, most recent first. */
  accountsOn(ip: string, sinceMs: number): SeenOnAddress[] {
    return this.#onAddress.all(ip, sinceMs);
  }

  /** Forgets addresses last seen before `beforeMs`; returns how many rows went. */
  prune(beforeMs: number): number {
    return this.#prune.run(beforeMs).changes;
  }

  /** Distinct addresses recorded. */
  addressCount(): number {
    return this.#addresses.get()?.count ?? 0;
  }
}
