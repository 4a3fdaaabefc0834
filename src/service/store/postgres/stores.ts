import { randomBytes } from 'node:crypto';
import type { Clock } from '../../../ports/clock.js';
import type { PgDb } from '../../sharing/pg-db.js';
import type { ServiceStoresPorts } from '../ports/stores.js';
import type { UnrenderableTicketReport } from '../tickets.js';
import { PgAddressRetentionStore } from './address-retention.js';
import { PgAppealCodeStore } from './appeal-codes.js';
import { PgAppealStore } from './appeals.js';
import { PgAuditLog } from './audit-log.js';
import { PgAuditQueryStore } from './audit-query.js';
import { PgDashboardCounts } from './dashboard-counts.js';
import { PgEnforcementStore } from './enforcement.js';
import { PgEvasionPunishmentStore } from './evasion-punishments.js';
import { PgExpiryStore } from './expiries.js';
import { PgIdempotencyKeyStore } from './idempotency-keys.js';
import { PgMigrationStore } from './migrations.js';
import { PgNetworkStore } from './networks.js';
import { PgNotificationStore } from './notifications.js';
import { PgPanelAccountStore } from './panel-accounts.js';
import { PgPanelDeviceStore } from './panel-devices.js';
import { PgPanelRecoveryCodeStore } from './panel-recovery-codes.js';
import { PgPanelRoleStore } from './panel-roles.js';
import { PgPanelSessionStore } from './panel-sessions.js';
import { PgPardonStore } from './pardons.js';
import { PgPlayerIpStore } from './player-ips.js';
import { PgPlayerLookup } from './player-lookup.js';
import { PgPlayerStore } from './players.js';
import { PgPublicListStore } from './public-list.js';
import { PgPunishmentStore } from './punishments.js';
import { PgServerKeyStore } from './server-keys.js';
import { PgStreamChangeStore } from './stream-changes.js';
import { PgTicketListStore } from './ticket-list.js';
import { PgTicketStore } from './tickets.js';
import { type DeliveryLeases, PgDeliveryStore } from './webhook-deliveries.js';
import { PgWebhookLog } from './webhook-log.js';
import { PgWebhookStore } from './webhooks.js';

/** What the stores need besides the database. */
export interface PgStoreOptions {
  /** How this instance leases webhook deliveries. @default a random instance id, 60 s leases, the system clock */
  leases?: DeliveryLeases;
  reportUnrenderableTicket?: UnrenderableTicketReport;
  /** What a key's grace period is measured by (the login check's key lookup). @default the system clock */
  clock?: Clock;
}

/** A lease identity of its own: one per running instance. */
export const instanceLeases = (): DeliveryLeases => ({
  instanceId: randomBytes(8).toString('hex'),
  leaseMs: 60_000,
  nowMs: () => Date.now(),
});

/** The PostgreSQL stores, all on one `PgDb`: the pool, or the client of one transaction. */
export function createPgStores(db: PgDb, options: PgStoreOptions = {}) {
  const leases = options.leases ?? instanceLeases();
  return {
    networks: new PgNetworkStore(db, options.clock),
    players: new PgPlayerStore(db),
    playerIps: new PgPlayerIpStore(db),
    punishments: new PgPunishmentStore(db),
    enforcement: new PgEnforcementStore(db),
    evasion: new PgEvasionPunishmentStore(db),
    notifications: new PgNotificationStore(db),
    pardons: new PgPardonStore(db),
    idempotencyKeys: new PgIdempotencyKeyStore(db),
    streamChanges: new PgStreamChangeStore(db),
    tickets: new PgTicketStore(db, options.reportUnrenderableTicket),
    migrations: new PgMigrationStore(db),
    webhooks: new PgWebhookStore(db),
    webhookDeliveries: new PgDeliveryStore(db, leases),
    webhookLog: new PgWebhookLog(db),
    expiries: new PgExpiryStore(db),
    addressRetention: new PgAddressRetentionStore(db),
    panelAccounts: new PgPanelAccountStore(db),
    panelRoles: new PgPanelRoleStore(db),
    panelSessions: new PgPanelSessionStore(db),
    auditLog: new PgAuditLog(db),
    dashboard: new PgDashboardCounts(db),
    playerLookup: new PgPlayerLookup(db),
    publicList: new PgPublicListStore(db),
    auditQuery: new PgAuditQueryStore(db),
    appeals: new PgAppealStore(db),
    appealCodes: new PgAppealCodeStore(db),
    ticketList: new PgTicketListStore(db),
    panelDevices: new PgPanelDeviceStore(db),
    panelRecoveryCodes: new PgPanelRecoveryCodeStore(db),
    serverKeys: new PgServerKeyStore(db),
  };
}

export type PgStores = ReturnType<typeof createPgStores>;

// Fails to compile when a PostgreSQL store's methods drift from its port.
const _conforms = (stores: PgStores): Pick<ServiceStoresPorts, keyof PgStores> => stores;
void _conforms;
