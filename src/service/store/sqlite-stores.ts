import type { Db } from '../../db/open-db.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { DeliveryStore } from '../webhooks/delivery-store.js';
import { WebhookLog } from '../webhooks/webhook-log.js';
import { WebhookStore } from '../webhooks/webhook-store.js';
import { AddressRetentionStore } from './address-retention.js';
import { AppealCodeStore } from './appeal-codes.js';
import { AppealStore } from './appeals.js';
import { AuditLog } from './audit-log.js';
import { AuditQueryStore } from './audit-query.js';
import { DashboardCounts } from './dashboard-counts.js';
import { EnforcementStore } from './enforcement.js';
import { EvasionPunishmentStore } from './evasion-punishments.js';
import { ExpiryStore } from './expiries.js';
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
import { PublicListStore } from './public-list.js';
import { PunishmentStore } from './punishments.js';
import { ServerKeyStore } from './server-keys.js';
import { StreamChangeStore } from './stream-changes.js';
import { TicketListStore } from './ticket-list.js';
import { TicketStore } from './tickets.js';

/** The SQLite stores, synchronous as better-sqlite3 is; {@link SqliteStorage} hands them out as ports. */
export interface SqliteStores {
  networks: NetworkStore;
  players: PlayerStore;
  playerIps: PlayerIpStore;
  punishments: PunishmentStore;
  enforcement: EnforcementStore;
  evasion: EvasionPunishmentStore;
  notifications: NotificationStore;
  pardons: PardonStore;
  tickets: TicketStore;
  migrations: MigrationStore;
  idempotencyKeys: IdempotencyKeyStore;
  streamChanges: StreamChangeStore;
  webhooks: WebhookStore;
  webhookDeliveries: DeliveryStore;
  webhookLog: WebhookLog;
  panelAccounts: PanelAccountStore;
  panelRoles: PanelRoleStore;
  panelSessions: PanelSessionStore;
  auditLog: AuditLog;
  publicList: PublicListStore;
  appeals: AppealStore;
  appealCodes: AppealCodeStore;
  ticketList: TicketListStore;
  auditQuery: AuditQueryStore;
  dashboard: DashboardCounts;
  playerLookup: PlayerLookup;
  expiries: ExpiryStore;
  addressRetention: AddressRetentionStore;
  panelDevices: PanelDeviceStore;
  panelRecoveryCodes: PanelRecoveryCodeStore;
  serverKeys: ServerKeyStore;
}

/** A store seen through its port: every public method answers a promise of what it returns (or resolves to). */
export type Promised<Store> = {
  [Name in keyof Store]: Store[Name] extends (...args: infer Args) => infer Result
    ? (...args: Args) => Promise<Awaited<Result>>
    : never;
};

// Fails to compile when a SQLite store's methods drift from its port.
type PromisedStores = { [Name in keyof SqliteStores]: Promised<SqliteStores[Name]> };
const _conforms = (stores: PromisedStores): ServiceStoresPorts => stores;
void _conforms;

/** @param clock what a key's grace period is measured by (the login check's key lookup) @default the system clock */
export function createSqliteStores(db: Db, logger?: Logger, clock?: Clock): SqliteStores {
  const webhookLog = new WebhookLog(db);
  const tickets = new TicketStore(db, (ticketId, error) =>
    logger?.error('ticket row cannot be rendered; left out', { ticketId, problem: error.message }),
  );
  return {
    networks: new NetworkStore(db, clock),
    players: new PlayerStore(db),
    playerIps: new PlayerIpStore(db),
    punishments: new PunishmentStore(db),
    enforcement: new EnforcementStore(db),
    evasion: new EvasionPunishmentStore(db),
    notifications: new NotificationStore(db),
    pardons: new PardonStore(db),
    tickets,
    migrations: new MigrationStore(db),
    idempotencyKeys: new IdempotencyKeyStore(db),
    streamChanges: new StreamChangeStore(db),
    webhooks: new WebhookStore(db),
    webhookDeliveries: new DeliveryStore(db, webhookLog),
    webhookLog,
    panelAccounts: new PanelAccountStore(db),
    panelRoles: new PanelRoleStore(db),
    panelSessions: new PanelSessionStore(db),
    auditLog: new AuditLog(db),
    publicList: new PublicListStore(db),
    appeals: new AppealStore(db, tickets),
    appealCodes: new AppealCodeStore(db),
    ticketList: new TicketListStore(db),
    auditQuery: new AuditQueryStore(db),
    dashboard: new DashboardCounts(db),
    playerLookup: new PlayerLookup(db),
    expiries: new ExpiryStore(db),
    addressRetention: new AddressRetentionStore(db),
    panelDevices: new PanelDeviceStore(db),
    panelRecoveryCodes: new PanelRecoveryCodeStore(db),
    serverKeys: new ServerKeyStore(db),
  };
}
