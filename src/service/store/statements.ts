import { DELIVERY_SQL } from '../webhooks/delivery-store.js';
import { WEBHOOK_LOG_SQL } from '../webhooks/webhook-log.js';
import { WEBHOOK_SQL } from '../webhooks/webhook-store.js';
import { APPEAL_CODE_SQL } from './appeal-codes.js';
import { APPEAL_SQL } from './appeals.js';
import { AUDIT_LOG_SQL } from './audit-log.js';
import { AUDIT_QUERY_SQL } from './audit-query.js';
import { DASHBOARD_SQL } from './dashboard-counts.js';
import { ENFORCEMENT_SQL } from './enforcement.js';
import { EVASION_SQL } from './evasion-punishments.js';
import { EXPIRY_SQL } from './expiries.js';
import { IDEMPOTENCY_KEY_SQL } from './idempotency-keys.js';
import { MIGRATION_SQL } from './migrations.js';
import { NETWORK_SQL } from './networks.js';
import { NOTIFICATION_SQL } from './notifications.js';
import { PANEL_ACCOUNT_SQL } from './panel-accounts.js';
import { PANEL_DEVICE_SQL } from './panel-devices.js';
import { PANEL_RECOVERY_CODE_SQL } from './panel-recovery-codes.js';
import { PANEL_ROLE_SQL } from './panel-roles.js';
import { PANEL_SESSION_SQL } from './panel-sessions.js';
import { PARDON_SQL } from './pardons.js';
import { PLAYER_IP_SQL } from './player-ips.js';
import { PLAYER_LOOKUP_SQL } from './player-lookup.js';
import { PLAYER_SQL } from './players.js';
import { PUBLIC_LIST_SQL } from './public-list.js';
import { PUNISHMENT_SQL } from './punishments.js';
import { SERVER_KEY_SQL } from './server-keys.js';
import { STREAM_CHANGE_SQL } from './stream-changes.js';
import { TICKET_LIST_SQL } from './ticket-list.js';
import { TICKET_SQL } from './tickets.js';

/**
 * Every statement the service's stores prepare, by store and name. The query-plan test checks the
 * plan of each against a database the size of a network, so a statement without an index fails CI.
 */
export const SERVICE_STATEMENTS = {
  networks: NETWORK_SQL,
  players: PLAYER_SQL,
  playerIps: PLAYER_IP_SQL,
  punishments: PUNISHMENT_SQL,
  enforcement: ENFORCEMENT_SQL,
  evasion: EVASION_SQL,
  notifications: NOTIFICATION_SQL,
  pardons: PARDON_SQL,
  tickets: TICKET_SQL,
  migrations: MIGRATION_SQL,
  idempotencyKeys: IDEMPOTENCY_KEY_SQL,
  streamChanges: STREAM_CHANGE_SQL,
  webhooks: WEBHOOK_SQL,
  webhookDeliveries: DELIVERY_SQL,
  webhookLog: WEBHOOK_LOG_SQL,
  expiries: EXPIRY_SQL,
  publicList: PUBLIC_LIST_SQL,
  appeals: APPEAL_SQL,
  appealCodes: APPEAL_CODE_SQL,
  ticketList: TICKET_LIST_SQL,
  auditQuery: AUDIT_QUERY_SQL,
  panelAccounts: PANEL_ACCOUNT_SQL,
  panelRoles: PANEL_ROLE_SQL,
  panelSessions: PANEL_SESSION_SQL,
  auditLog: AUDIT_LOG_SQL,
  dashboard: DASHBOARD_SQL,
  playerLookup: PLAYER_LOOKUP_SQL,
  panelDevices: PANEL_DEVICE_SQL,
  panelRecoveryCodes: PANEL_RECOVERY_CODE_SQL,
  serverKeys: SERVER_KEY_SQL,
} as const;
