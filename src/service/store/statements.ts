import { ADDRESS_RETENTION_STATEMENTS } from './address-retention.js';
import { APPEAL_CODE_STATEMENTS } from './appeal-codes.js';
import { APPEAL_STATEMENTS } from './appeals.js';
import { AUDIT_LOG_STATEMENTS } from './audit-log.js';
import { AUDIT_QUERY_STATEMENTS } from './audit-query.js';
import { CHAT_LOG_STATEMENTS } from './chat-log.js';
import { DASHBOARD_STATEMENTS } from './dashboard-counts.js';
import { ENFORCEMENT_STATEMENTS } from './enforcement.js';
import { EVASION_STATEMENTS } from './evasion-punishments.js';
import { EXPIRY_STATEMENTS } from './expiries.js';
import { FREEZE_STATEMENTS } from './freezes.js';
import { IDEMPOTENCY_KEY_STATEMENTS } from './idempotency-keys.js';
import { MIGRATION_STATEMENTS } from './migrations.js';
import { NETWORK_STATEMENTS } from './networks.js';
import { NOTIFICATION_STATEMENTS } from './notifications.js';
import { PANEL_ACCOUNT_STATEMENTS } from './panel-accounts.js';
import { PANEL_DEVICE_STATEMENTS } from './panel-devices.js';
import { PANEL_RECOVERY_CODE_STATEMENTS } from './panel-recovery-codes.js';
import { PANEL_ROLE_STATEMENTS } from './panel-roles.js';
import { PANEL_SESSION_STATEMENTS } from './panel-sessions.js';
import { PARDON_STATEMENTS } from './pardons.js';
import { PLAYER_IP_STATEMENTS } from './player-ips.js';
import { PLAYER_LOOKUP_STATEMENTS } from './player-lookup.js';
import { PLAYER_STATEMENTS } from './players.js';
import { PUBLIC_LIST_STATEMENTS } from './public-list.js';
import { PUNISHMENT_EXPORT_STATEMENTS } from './punishment-export.js';
import { PUNISHMENT_STATEMENTS } from './punishments.js';
import { SERVER_KEY_STATEMENTS } from './server-keys.js';
import { STAFF_LIMIT_STATEMENTS } from './staff-limits.js';
import { STAFF_NOTE_STATEMENTS } from './staff-notes.js';
import { STAFF_STATS_STATEMENTS } from './staff-stats.js';
import { STREAM_CHANGE_STATEMENTS } from './stream-changes.js';
import { TICKET_LIST_STATEMENTS } from './ticket-list.js';
import { TICKET_STATEMENTS } from './tickets.js';
import { WARNING_LADDER_STATEMENTS } from './warning-ladders.js';
import { DELIVERY_STATEMENTS } from './webhook-deliveries.js';
import { WEBHOOK_LOG_STATEMENTS } from './webhook-log.js';
import { WEBHOOK_STATEMENTS } from './webhooks.js';

/**
 * Every statement of the stores, by store and name (each named `store.name`). The query-plan tests
 * check the plan of each on both databases against a database the size of a network.
 */
export const STORE_STATEMENTS = {
  networks: NETWORK_STATEMENTS,
  serverKeys: SERVER_KEY_STATEMENTS,
  idempotencyKeys: IDEMPOTENCY_KEY_STATEMENTS,
  streamChanges: STREAM_CHANGE_STATEMENTS,
  migrations: MIGRATION_STATEMENTS,
  webhooks: WEBHOOK_STATEMENTS,
  players: PLAYER_STATEMENTS,
  playerIps: PLAYER_IP_STATEMENTS,
  punishments: PUNISHMENT_STATEMENTS,
  enforcement: ENFORCEMENT_STATEMENTS,
  evasion: EVASION_STATEMENTS,
  notifications: NOTIFICATION_STATEMENTS,
  pardons: PARDON_STATEMENTS,
  tickets: TICKET_STATEMENTS,
  webhookDeliveries: DELIVERY_STATEMENTS,
  webhookLog: WEBHOOK_LOG_STATEMENTS,
  expiries: EXPIRY_STATEMENTS,
  addressRetention: ADDRESS_RETENTION_STATEMENTS,
  ticketList: TICKET_LIST_STATEMENTS,
  auditQuery: AUDIT_QUERY_STATEMENTS,
  auditLog: AUDIT_LOG_STATEMENTS,
  dashboard: DASHBOARD_STATEMENTS,
  playerLookup: PLAYER_LOOKUP_STATEMENTS,
  panelAccounts: PANEL_ACCOUNT_STATEMENTS,
  panelRoles: PANEL_ROLE_STATEMENTS,
  panelSessions: PANEL_SESSION_STATEMENTS,
  panelDevices: PANEL_DEVICE_STATEMENTS,
  panelRecoveryCodes: PANEL_RECOVERY_CODE_STATEMENTS,
  publicList: PUBLIC_LIST_STATEMENTS,
  appeals: APPEAL_STATEMENTS,
  appealCodes: APPEAL_CODE_STATEMENTS,
  warningLadders: WARNING_LADDER_STATEMENTS,
  freezes: FREEZE_STATEMENTS,
  staffLimits: STAFF_LIMIT_STATEMENTS,
  punishmentExport: PUNISHMENT_EXPORT_STATEMENTS,
  staffNotes: STAFF_NOTE_STATEMENTS,
  staffStats: STAFF_STATS_STATEMENTS,
  chatLog: CHAT_LOG_STATEMENTS,
} as const;
