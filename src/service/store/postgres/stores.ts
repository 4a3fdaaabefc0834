import type { ServiceStoresPorts } from '../ports/stores.js';
import { PgAddressRetentionStore } from './address-retention.js';
import { PgAuditLog } from './audit-log.js';
import { PgAuditQueryStore } from './audit-query.js';
import { PgDashboardCounts } from './dashboard-counts.js';
import { PgEnforcementStore } from './enforcement.js';
import { PgEvasionPunishmentStore } from './evasion-punishments.js';
import { PgExpiryStore } from './expiries.js';
import { PgIdempotencyKeyStore } from './idempotency-keys.js';
import { PgNetworkStore } from './networks.js';
import { PgNotificationStore } from './notifications.js';
import { PgPanelAccountStore } from './panel-accounts.js';
import { PgPanelRoleStore } from './panel-roles.js';
import { PgPanelSessionStore } from './panel-sessions.js';
import { PgPardonStore } from './pardons.js';
import { PgPlayerIpStore } from './player-ips.js';
import { PgPlayerLookup } from './player-lookup.js';
import { PgPlayerStore } from './players.js';
import type { PgDb } from './pool.js';
import { PgPublicListStore } from './public-list.js';
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
    expiries: new PgExpiryStore(db),
    addressRetention: new PgAddressRetentionStore(db),
    panelAccounts: new PgPanelAccountStore(db),
    panelRoles: new PgPanelRoleStore(db),
    panelSessions: new PgPanelSessionStore(db),
    auditLog: new PgAuditLog(db),
    publicList: new PgPublicListStore(db),
    auditQuery: new PgAuditQueryStore(db),
    dashboard: new PgDashboardCounts(db),
    playerLookup: new PgPlayerLookup(db),
  };
}

export type PgStores = ReturnType<typeof createPgStores>;

// Fails to compile when a PostgreSQL store's methods drift from its port.
const _conforms = (stores: PgStores): Pick<ServiceStoresPorts, keyof PgStores> => stores;
void _conforms;
