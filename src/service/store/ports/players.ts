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

/** Players a network has seen, by lower-case UUID. */
export interface PlayerStorePort {
  /** The player of that name (any case); when several held it, the one who logged in last. */
  findByName(networkId: number, name: string): Promise<{ uuid: string; name: string } | undefined>;
  find(networkId: number, uuid: string): Promise<PlayerRecord | undefined>;
  /** Registers the player (or renames them) and records the address and server of this login. */
  recordLogin(networkId: number, login: PlayerLogin): Promise<void>;
  findName(networkId: number, uuid: string): Promise<string | undefined>;
  /** Registers the player or renames them; unchanged rows are not rewritten. */
  save(networkId: number, uuid: string, name: string): Promise<void>;
}
