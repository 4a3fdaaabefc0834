import type { Db } from '../../db/open-db.js';

/** One address a player logged in from. */
export interface PlayerIp {
  ip: string;
  firstSeenAt: number;
  lastSeenAt: number;
}

/** An account seen on an address. */
export interface AccountOnIp {
  uuid: string;
  lastSeenAt: number;
}

/** The statements of {@link PlayerIpStore}; test/service/query-plans.test.ts checks each one's plan. */
export const PLAYER_IP_SQL = {
  record: `INSERT INTO service_player_ips (network_id, ip, uuid, first_seen_at, last_seen_at)
       VALUES (@networkId, @ip, @uuid, @at, @at)
       ON CONFLICT (network_id, ip, uuid) DO UPDATE SET last_seen_at = max(last_seen_at, excluded.last_seen_at)`,
  addressesOf: `SELECT ip, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt FROM service_player_ips
       WHERE network_id = @networkId AND uuid = @uuid AND last_seen_at >= @sinceMs ORDER BY last_seen_at DESC`,
  accountsOn: `SELECT uuid, last_seen_at AS lastSeenAt FROM service_player_ips
       WHERE network_id = @networkId AND ip = @ip AND last_seen_at >= @sinceMs LIMIT @limit`,
} as const;

/** Which addresses each player logged in from, and when (the login check records them). */
export class PlayerIpStore {
  private readonly upsert;
  private readonly ofPlayer;
  private readonly onIp;

  constructor(db: Db) {
    this.upsert = db.prepare<{ networkId: number; ip: string; uuid: string; at: number }>(PLAYER_IP_SQL.record);
    this.ofPlayer = db.prepare<{ networkId: number; uuid: string; sinceMs: number }, PlayerIp>(
      PLAYER_IP_SQL.addressesOf,
    );
    this.onIp = db.prepare<{ networkId: number; ip: string; sinceMs: number; limit: number }, AccountOnIp>(
      PLAYER_IP_SQL.accountsOn,
    );
  }

  record(networkId: number, uuid: string, ip: string, at: number): void {
    this.upsert.run({ networkId, ip, uuid: uuid.toLowerCase(), at });
  }

  /** The player's addresses seen since `sinceMs`, most recent first. */
  addressesOf(networkId: number, uuid: string, sinceMs: number): PlayerIp[] {
    return this.ofPlayer.all({ networkId, uuid: uuid.toLowerCase(), sinceMs });
  }

  /** Accounts seen on `ip` since `sinceMs`, at most `limit` of them. */
  accountsOn(networkId: number, ip: string, sinceMs: number, limit: number): AccountOnIp[] {
    return this.onIp.all({ networkId, ip, sinceMs, limit });
  }
}
