import type { AddressRetentionPort } from './address-retention.js';
import type { AppealCodeStorePort } from './appeal-codes.js';
import type { AppealStorePort } from './appeals.js';
import type { AuditLogPort } from './audit-log.js';
import type { AuditQueryStorePort } from './audit-query.js';
import type { ChatLogStorePort } from './chat-log.js';
import type { DashboardCountsPort } from './dashboard.js';
import type { EnforcementStorePort } from './enforcement.js';
import type { EvasionPunishmentStorePort } from './evasion.js';
import type { ExpiryStorePort } from './expiries.js';
import type { FreezeStorePort } from './freezes.js';
import type { IdempotencyKeyStorePort } from './idempotency-keys.js';
import type { MigrationStorePort } from './migrations.js';
import type { NetworkStorePort } from './networks.js';
import type { NotificationStorePort } from './notifications.js';
import type { PanelAccountStorePort } from './panel-accounts.js';
import type { PanelDeviceStorePort } from './panel-devices.js';
import type { PanelRecoveryCodeStorePort } from './panel-recovery-codes.js';
import type { PanelRoleStorePort } from './panel-roles.js';
import type { PanelSessionStorePort } from './panel-sessions.js';
import type { PardonStorePort } from './pardons.js';
import type { PlayerIpStorePort } from './player-ips.js';
import type { PlayerLookupPort } from './player-lookup.js';
import type { PlayerStorePort } from './players.js';
import type { PublicListStorePort } from './public-list.js';
import type { PunishmentExportStorePort } from './punishment-export.js';
import type { PunishmentStorePort } from './punishments.js';
import type { ServerKeyStorePort } from './server-keys.js';
import type { StaffLimitStorePort } from './staff-limits.js';
import type { StaffNoteStorePort } from './staff-notes.js';
import type { StaffStatsPort } from './staff-stats.js';
import type { StreamChangeStorePort } from './stream-changes.js';
import type { TicketListStorePort } from './ticket-list.js';
import type { TicketStorePort } from './tickets.js';
import type { WarningLadderStorePort } from './warning-ladders.js';
import type { DeliveryStorePort } from './webhook-deliveries.js';
import type { WebhookLogPort } from './webhook-log.js';
import type { WebhookStorePort } from './webhooks.js';

/** Every store of the service, whatever database holds them. */
export interface ServiceStoresPorts {
  networks: NetworkStorePort;
  players: PlayerStorePort;
  playerIps: PlayerIpStorePort;
  punishments: PunishmentStorePort;
  enforcement: EnforcementStorePort;
  evasion: EvasionPunishmentStorePort;
  notifications: NotificationStorePort;
  pardons: PardonStorePort;
  tickets: TicketStorePort;
  migrations: MigrationStorePort;
  idempotencyKeys: IdempotencyKeyStorePort;
  streamChanges: StreamChangeStorePort;
  webhooks: WebhookStorePort;
  webhookDeliveries: DeliveryStorePort;
  webhookLog: WebhookLogPort;
  panelAccounts: PanelAccountStorePort;
  panelRoles: PanelRoleStorePort;
  panelSessions: PanelSessionStorePort;
  auditLog: AuditLogPort;
  /** The public ban list and its switch (panel). */
  publicList: PublicListStorePort;
  /** Appeals, each with its appeal ticket (panel). */
  appeals: AppealStorePort;
  /** One-time appeal codes of appeals (extension and panel). */
  appealCodes: AppealCodeStorePort;
  /** The staff's ticket list and assignment (panel). */
  ticketList: TicketListStorePort;
  /** The audit page's filtered reads (panel). */
  auditQuery: AuditQueryStorePort;
  /** The panel dashboard's counts per day and open tickets. */
  dashboard: DashboardCountsPort;
  /** The panel's player search and a player's whole history. */
  playerLookup: PlayerLookupPort;
  /** Ended punishments the expiry announcer has not announced yet. */
  expiries: ExpiryStorePort;
  /** The address pruner's deletions. */
  addressRetention: AddressRetentionPort;
  /** Browsers that logged in to a staff account before (login throttling trusts them). */
  panelDevices: PanelDeviceStorePort;
  /** Staff accounts' two-factor recovery codes. */
  panelRecoveryCodes: PanelRecoveryCodeStorePort;
  /** Servers and keys as operators add, rotate and remove them. */
  serverKeys: ServerKeyStorePort;
  /** Each network's warning ladder and the live warnings it counts. */
  warningLadders: WarningLadderStorePort;
  /** Frozen players (extension and panel). */
  freezes: FreezeStorePort;
  /** What each panel role may issue, and what one issuer issued (staff limits, rollback). */
  staffLimits: StaffLimitStorePort;
  /** A network's punishments in id order, for `bailiff migrate --to json`. */
  punishmentExport: PunishmentExportStorePort;
  /** Staff notes on players and comments on punishments (panel, extension). */
  staffNotes: StaffNoteStorePort;
  /** The dashboard's punishments, tickets and accepted appeals per staff member. */
  staffStats: StaffStatsPort;
  /** Players' chat lines and commands, with each network's retention and size bound. */
  chatLog: ChatLogStorePort;
}
