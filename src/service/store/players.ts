import type { Db } from '../../db/open-db.js';

/** A player as the login check last saw them. */
export interface PlayerRecord {
  uuid: string;
  name: string;
  lastIp: string | null;
  lastServer: string | null;
  lastLoginAt: number | null;
}

export interface PlayerLogin {
  uuid: string;
  name: string;
  ip: string | undefined;
  server: string;
  at: number;
}

/** The statements of {@link PlayerStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PLAYER_SQL = {
  nameOf: 'SELECT name FROM service_players WHERE network_id = ? AND uuid = ?',
  save: `INSERT INTO service_players (network_id, uuid, name) VALUES (@networkId, @uuid, @name)
       ON CONFLICT (network_id, uuid) DO UPDATE SET name = excluded.name WHERE name <> excluded.name`,
  // An address the login did not carry keeps the last one known.
  recordLogin: `INSERT INTO service_players (network_id, uuid, name, last_ip, last_server, last_login_at)
       VALUES (@networkId, @uuid, @name, @ip, @server, @at)
       ON CONFLICT (network_id, uuid) DO UPDATE SET name = excluded.name,
         last_ip = coalesce(excluded.last_ip, last_ip), last_server = excluded.last_server,
         last_login_at = excluded.last_login_at`,
  byName: `SELECT uuid, name FROM service_players WHERE network_id = ? AND name = ? COLLATE NOCASE
       ORDER BY last_login_at IS NULL, last_login_at DESC LIMIT 1`,
  byUuid: `SELECT uuid, name, last_ip AS lastIp, last_server AS lastServer, last_login_at AS lastLoginAt
       FROM service_players WHERE network_id = ? AND uuid = ?`,
} as const;

/** Players a network has seen, by lower-case UUID. */
export class PlayerStore {
  private readonly nameOf;
  private readonly upsert;
  private readonly loginUpsert;
  private readonly byUuid;
  private readonly byName;

  constructor(db: Db) {
    this.nameOf = db.prepare<[number, string], { name: string }>(PLAYER_SQL.nameOf);
    this.upsert = db.prepare<{ networkId: number; uuid: string; name: string }>(PLAYER_SQL.save);
    this.loginUpsert = db.prepare<{
      networkId: number;
      uuid: string;
      name: string;
      ip: string | null;
      server: string;
      at: number;
    }>(PLAYER_SQL.recordLogin);
    this.byName = db.prepare<[number, string], { uuid: string; name: string }>(PLAYER_SQL.byName);
    this.byUuid = db.prepare<[number, string], PlayerRecord>(PLAYER_SQL.byUuid);
  }

  /** The player of that name (any case); when several held it, the one who logged in last. */
  findByName(networkId: number, name: string): { uuid: string; name: string } | undefined {
    return this.byName.get(networkId, name);
  }

  find(networkId: number, uuid: string): PlayerRecord | undefined {
    return this.byUuid.get(networkId, uuid.toLowerCase());
  }

  /** Registers the player (or renames them) and records the address and server of this login. */
  recordLogin(networkId: number, login: PlayerLogin): void {
    this.loginUpsert.run({
      networkId,
      uuid: login.uuid.toLowerCase(),
      name: login.name,
      ip: login.ip ?? null,
      server: login.server,
      at: login.at,
    });
  }

  findName(networkId: number, uuid: string): string | undefined {
    return this.nameOf.get(networkId, uuid.toLowerCase())?.name;
  }

  /** Registers the player or renames them; unchanged rows are not rewritten. */
  save(networkId: number, uuid: string, name: string): void {
    this.upsert.run({ networkId, uuid: uuid.toLowerCase(), name });
  }
}
