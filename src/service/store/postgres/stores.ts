import { PgEnforcementStore } from './enforcement.js';
import { PgEvasionPunishmentStore } from './evasion-punishments.js';
import { PgIdempotencyKeyStore } from './idempotency-keys.js';
import { PgNetworkStore } from './networks.js';
import { PgNotificationStore } from './notifications.js';
import { PgPardonStore } from './pardons.js';
import { PgPlayerIpStore } from './player-ips.js';
import { PgPlayerStore } from './players.js';
import type { PgDb } from './pool.js';
import { PgPunishmentStore } from './punishments.js';
import { PgStreamChangeStore } from './stream-changes.js';

/** The PostgreSQL stores, all on one `PgDb`: the pool, or the client of one transaction. */
export function createPgStores(db: PgDb) {
  return {
    networks: new PgNetworkStore(db),
    players: new PgPlayerStore(db),
    playerIps: new PgPlayerIpStore(db),
    punishments: new PgPunishmentStore(db),
    enforcement: new PgEnforcementStore(db),
    evasion: new PgEvasionPunishmentStore(db),
    notifications: new PgNotificationStore(db),
    pardons: new PgPardonStore(db),
    idempotencyKeys: new PgIdempotencyKeyStore(db),
    streamChanges: new PgStreamChangeStore(db),
  };
}

export type PgStores = ReturnType<typeof createPgStores>;
