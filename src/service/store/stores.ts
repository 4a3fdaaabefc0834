import type { Clock } from '../../ports/clock.js';
import type { SqlContext } from '../db/prepared.js';
import { AddressRetentionStore } from './address-retention.js';
import { AppealCodeStore } from './appeal-codes.js';
import { AppealStore } from './appeals.js';
import { AuditLog } from './audit-log.js';
import { AuditQueryStore } from './audit-query.js';
import { ChatLogStore } from './chat-log.js';
import { DashboardCounts } from './dashboard-counts.js';
import { EnforcementStore } from './enforcement.js';
import { EvasionPunishmentStore } from './evasion-punishments.js';
import { ExpiryStore } from './expiries.js';
import { FreezeStore } from './freezes.js';
import { IdempotencyKeyStore } from './idempotency-keys.js';
import { MigrationStore } from './migrations.js';
import { NetworkStore } from './networks.js';
import { NotificationStore } from './notifications.js';
import { PanelAccountStore } from './panel-accounts.js';
import { PanelDeviceStore } from './panel-devices.js';
import { PanelRecoveryCodeStore } from './panel-recovery-codes.js';
import { PanelRoleStore } from './panel-roles.js';
import { PanelSessionStore } from './panel-sessions.js';
import { PardonStore } from './pardons.js';
import { PlayerIpStore } from './player-ips.js';
import { PlayerLookup } from './player-lookup.js';
import { PlayerStore } from './players.js';
import type { ServiceStoresPorts } from './ports/stores.js';
import type { UnrenderableTicketReport } from './ports/tickets.js';
import { PublicListStore } from './public-list.js';
import { PunishmentExportStore } from './punishment-export.js';
import { PunishmentStore } from './punishments.js';
import { ServerKeyStore } from './server-keys.js';
import { StaffLimitStore } from './staff-limits.js';
import { StaffNoteStore } from './staff-notes.js';
import { StaffStats } from './staff-stats.js';
import { StreamChangeStore } from './stream-changes.js';
import { TicketListStore } from './ticket-list.js';
import { TicketStore } from './tickets.js';
import { WarningLadderStore } from './warning-ladders.js';
import { type DeliveryLeases, DeliveryStore, instanceLeases } from './webhook-deliveries.js';
import { WebhookLog } from './webhook-log.js';
import { WebhookStore } from './webhooks.js';

/** What the stores need besides the database. */
export interface StoreOptions {
  /** How this instance leases webhook deliveries. @default a random instance id, 60 s leases, the system clock */
  leases?: DeliveryLeases;
  /** Told about a stored ticket or reply whose date cannot be shown (it is left out). */
  reportUnrenderableTicket?: UnrenderableTicketReport;
  /** What a key's grace period is measured by (the login check's key lookup). @default the system clock */
  clock?: Clock;
}

/** Every store, on one database or one transaction. */
export function createStores(sql: SqlContext, options: StoreOptions = {}) {
  return {
    networks: new NetworkStore(sql, options.clock),
    serverKeys: new ServerKeyStore(sql),
    idempotencyKeys: new IdempotencyKeyStore(sql),
    streamChanges: new StreamChangeStore(sql),
    migrations: new MigrationStore(sql),
    webhooks: new WebhookStore(sql),
    players: new PlayerStore(sql),
    playerIps: new PlayerIpStore(sql),
    punishments: new PunishmentStore(sql),
    enforcement: new EnforcementStore(sql),
    evasion: new EvasionPunishmentStore(sql),
    notifications: new NotificationStore(sql),
    pardons: new PardonStore(sql),
    tickets: new TicketStore(sql, options.reportUnrenderableTicket),
    webhookDeliveries: new DeliveryStore(sql, options.leases ?? instanceLeases()),
    webhookLog: new WebhookLog(sql),
    auditLog: new AuditLog(sql),
    ticketList: new TicketListStore(sql),
    auditQuery: new AuditQueryStore(sql),
    dashboard: new DashboardCounts(sql),
    playerLookup: new PlayerLookup(sql),
    expiries: new ExpiryStore(sql),
    addressRetention: new AddressRetentionStore(sql),
    panelAccounts: new PanelAccountStore(sql),
    panelRoles: new PanelRoleStore(sql),
    panelSessions: new PanelSessionStore(sql),
    panelDevices: new PanelDeviceStore(sql),
    panelRecoveryCodes: new PanelRecoveryCodeStore(sql),
    publicList: new PublicListStore(sql),
    appeals: new AppealStore(sql),
    appealCodes: new AppealCodeStore(sql),
    warningLadders: new WarningLadderStore(sql),
    freezes: new FreezeStore(sql),
    staffLimits: new StaffLimitStore(sql),
    punishmentExport: new PunishmentExportStore(sql),
    staffNotes: new StaffNoteStore(sql),
    staffStats: new StaffStats(sql),
    chatLog: new ChatLogStore(sql),
  };
}

export type Stores = ReturnType<typeof createStores>;

// Fails to compile when a store's methods drift from its port, or a port has no store.
const _conforms = (stores: Stores): ServiceStoresPorts => stores;
void _conforms;
