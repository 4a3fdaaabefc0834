import { type PgDb, pgStatements } from '../../sharing/pg-db.js';
import type { PlayerLogin, PlayerRecord } from '../players.js';

/** The statements of {@link PgPlayerStore}. */
export const PG_PLAYER_SQL = pgStatements('players', {
  nameOf: 'SELECT name FROM service_players WHERE network_id = $1 AND uuid = $2',
  save: `INSERT INTO service_players AS p (network_id, uuid, name) VALUES ($1, $2, $3)
    ON CONFLICT (network_id, uuid) DO UPDATE SET name = excluded.name WHERE p.name <> excluded.name`,
  // An address the login did not carry keeps the last one known.
  recordLogin: `INSERT INTO service_players AS p (network_id, uuid, name, last_ip, last_server, last_login_at)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (network_id, uuid) DO UPDATE SET name = excluded.name,
      last_ip = coalesce(excluded.last_ip, p.last_ip), last_server = excluded.last_server,
      last_login_at = excluded.last_login_at`,
  // lower() on both sides is SQLite's NOCASE, read through the (network_id, lower(name), ...) index.
  byName: `SELECT uuid, name FROM service_players WHERE network_id = $1 AND lower(name) = lower($2)
    ORDER BY last_login_at DESC NULLS LAST LIMIT 1`,
  byUuid: `SELECT uuid, name, last_ip AS "lastIp", last_server AS "lastServer", last_login_at AS "lastLoginAt"
    FROM service_players WHERE network_id = $1 AND uuid = $2`,
});

/** Players a network has seen, by lower-case UUID, on PostgreSQL. */
export class PgPlayerStore {
  constructor(private readonly db: PgDb) {}

  /** The player of that name (any case); when several held it, the one who logged in last. */
  findByName(networkId: number, name: string): Promise<{ uuid: string; name: string } | undefined> {
    return this.db.row(PG_PLAYER_SQL.byName, [networkId, name]);
  }

  find(networkId: number, uuid: string): Promise<PlayerRecord | undefined> {
    return this.db.row(PG_PLAYER_SQL.byUuid, [networkId, uuid.toLowerCase()]);
  }

  /** Registers the player (or renames them) and records the address and server of this login. */
  async recordLogin(networkId: number, login: PlayerLogin): Promise<void> {
    await this.db.run(PG_PLAYER_SQL.recordLogin, [
      networkId,
      login.uuid.toLowerCase(),
      login.name,
      login.ip ?? null,
      login.server,
      login.at,
    ]);
  }

  async findName(networkId: number, uuid: string): Promise<string | undefined> {
    return (await this.db.row<{ name: string }>(PG_PLAYER_SQL.nameOf, [networkId, uuid.toLowerCase()]))?.name;
  }

  /** Registers the player or renames them; unchanged rows are not rewritten. */
  async save(networkId: number, uuid: string, name: string): Promise<void> {
    await this.db.run(PG_PLAYER_SQL.save, [networkId, uuid.toLowerCase(), name]);
  }
}
