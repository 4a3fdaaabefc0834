import type { ColumnType, Generated } from 'kysely';

/**
 * The service's tables as Kysely sees them: the one source of row types. Times are epoch
 * milliseconds; UUIDs are stored lower-case; JSON is stored as text.
 */

/** A boolean column: SQLite answers 0 or 1, PostgreSQL a boolean; written as a boolean. */
export type BooleanColumn = ColumnType<boolean | number, boolean, boolean>;
/** A {@link BooleanColumn} with a default, so an insert may leave it out. */
export type DefaultedBooleanColumn = ColumnType<boolean | number, boolean | undefined, boolean>;
/** An id the database hands out. */
export type AutoId = Generated<number>;

export interface NetworksTable {
  id: AutoId;
  name: string;
  public_list: DefaultedBooleanColumn;
  /** Hours a punishment waits after a denied appeal before it may be appealed again. */
  appeal_cooldown_hours: Generated<number>;
  /** The name public pages give every issuer; null: the default. */
  public_issuer_label: string | null;
}

export interface ServersTable {
  id: AutoId;
  network_id: number;
  name: string;
  key_hash: Buffer;
  /** Null for a server whose key was set before keys were managed. */
  key_set_at: number | null;
  removed_at: number | null;
}

/** A key replaced by a rotation, accepted until `valid_until`. */
export interface RetiredKeysTable {
  key_hash: Buffer;
  server_id: number;
  retired_at: number;
  valid_until: number;
}

export interface PlayersTable {
  network_id: number;
  uuid: string;
  name: string;
  last_ip: string | null;
  last_server: string | null;
  last_login_at: number | null;
}

export interface PunishmentsTable {
  network_id: number;
  id: string;
  target_uuid: string;
  target_name: string;
  issuer_name: string;
  issuer_id: string | null;
  type_ordinal: number;
  reason: string;
  duration: number;
  severity: string | null;
  status: string;
  data: string | null;
  ip_ban_key: string | null;
  notes: string | null;
  attached_ticket_ids: string | null;
  created_at: number;
  started_at: number | null;
  updated_at: number;
  expiry_announced_at: number | null;
}

export interface EvidenceTable {
  id: AutoId;
  network_id: number;
  punishment_id: string;
  issuer_name: string;
  evidence_url: string;
  created_at: number;
}

export interface AcknowledgementsTable {
  id: AutoId;
  network_id: number;
  punishment_id: string;
  server_id: number;
  player_uuid: string;
  executed_at: number;
  success: BooleanColumn;
  error_message: string | null;
  received_at: number;
}

export interface NotificationsTable {
  network_id: number;
  id: string;
  player_uuid: string;
  created_at: number;
  acknowledged_at: number | null;
  /** Null for a punishment's notice, which is worded from the punishment. */
  message: string | null;
}

export interface PardonsTable {
  network_id: number;
  punishment_id: string;
  issuer_name: string;
  reason: string;
  server_id: number | null;
  pardoned_at: number;
}

export interface IdempotencyKeysTable {
  network_id: number;
  idempotency_key: string;
  request_hash: string;
  punishment_id: string;
  created_at: number;
}

export interface PlayerIpsTable {
  network_id: number;
  ip: string;
  uuid: string;
  first_seen_at: number;
  last_seen_at: number;
}

export interface StreamHeadsTable {
  network_id: number;
  epoch: string;
  pruned_through: Generated<number>;
}

export interface StreamChangesTable {
  network_id: number;
  sequence: number;
  punishment_id: string;
}

export interface TicketsTable {
  network_id: number;
  id: string;
  type: string;
  subject: string;
  description: string;
  status: string;
  priority: string;
  creator_uuid: string;
  creator_name: string;
  reported_player_uuid: string | null;
  reported_player_name: string | null;
  tags: string;
  created_at: number;
  updated_at: number;
  created_server: string | null;
  replay_url: string | null;
  chat_messages: string | null;
  assignee_uuid: string | null;
  assignee_name: string | null;
  closed_reason: string | null;
}

export interface TicketRepliesTable {
  network_id: number;
  ticket_id: string;
  id: string;
  author_name: string;
  message: string;
  created_at: number;
}

export interface MigrationUploadsTable {
  id: string;
  network_id: number;
  server_id: number | null;
  uploaded_by: string | null;
  file_size: number;
  status: string;
  processed: number;
  total: number;
  message: string;
  created_at: number;
  updated_at: number;
  leased_by: string | null;
  lease_expires_at: Generated<number>;
  /** Null until the whole file is stored. */
  stored_chunks: number | null;
  /** JSON: what the committed batches counted. */
  tally: string | null;
}

export interface MigrationChunksTable {
  upload_id: string;
  seq: number;
  data: Buffer;
}

export interface MigrationReportsTable {
  id: AutoId;
  network_id: number;
  server_id: number;
  status: string;
  message: string;
  processed: number | null;
  total: number | null;
  reported_at: number;
}

export interface WebhooksTable {
  id: AutoId;
  network_id: number;
  name: string;
  url: string;
  events: string;
  format: string;
  templates: string;
  max_attempts: number;
  enabled: BooleanColumn;
  /** The receiver asked for no request before this time (a 429's retry time). */
  blocked_until: Generated<number>;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  /** The order of deliveries per endpoint. */
  id: AutoId;
  webhook_id: number;
  delivery_id: string;
  event: string;
  body: string;
  status: string;
  attempts: Generated<number>;
  waits: Generated<number>;
  available_at: number;
  created_at: number;
  /** While an instance sends this delivery, no other takes it before the lease ends. */
  leased_until: Generated<number>;
  leased_by: string | null;
}

export interface WebhookLogTable {
  id: AutoId;
  webhook_id: number;
  delivery_id: string;
  event: string;
  attempted_at: number;
  outcome: string;
  status_code: number | null;
  excerpt: string;
}

export interface PanelRolesTable {
  network_id: number;
  name: string;
  permissions: string;
  created_at: number;
}

export interface PanelAccountsTable {
  id: AutoId;
  /** Null: a superuser of every network. */
  network_id: number | null;
  username: string;
  password_hash: string;
  role: string;
  disabled: DefaultedBooleanColumn;
  /** The confirmed TOTP secret (base32); null without two-factor. */
  totp_secret: string | null;
  /** A secret being set up, until a code from it confirms it. */
  totp_pending_secret: string | null;
  /** The newest time step a code was accepted for: a code is used once. */
  totp_last_step: number | null;
  created_at: number;
  updated_at: number;
}

export interface PanelSessionsTable {
  /** The SHA-256 of the session id; the id itself is never stored. */
  id_hash: Buffer;
  account_id: number;
  /** The network the session is looking at. */
  network_id: number;
  created_at: number;
  expires_at: number;
  /** `full` opens the panel; `code` waits for the second factor and opens no page. */
  stage: Generated<string>;
}

export interface PanelRecoveryCodesTable {
  account_id: number;
  /** The SHA-256 of the code; the code itself is never stored. */
  code_hash: Buffer;
  created_at: number;
  used_at: number | null;
}

export interface PanelDevicesTable {
  /** The SHA-256 of the token of the browser's device cookie. */
  token_hash: Buffer;
  account_id: number;
  created_at: number;
  expires_at: number;
}

/** Roles (built-in or custom) whose holders must use two-factor in a network. */
export interface PanelTwoFactorRolesTable {
  network_id: number;
  role: string;
  created_at: number;
}

export interface AuditLogTable {
  id: AutoId;
  network_id: number;
  actor: string;
  via: string;
  action: string;
  subject: string | null;
  detail: string | null;
  created_at: number;
}

export interface AppealsTable {
  network_id: number;
  ticket_id: string;
  punishment_id: string;
  token_hash: Buffer;
  player_name: string;
  status: 'open' | 'accepted' | 'denied';
  answer: string | null;
  decided_by: string | null;
  decided_at: number | null;
  created_at: number;
}

export interface AppealCodesTable {
  network_id: number;
  /** The SHA-256 of the one-time code; the code itself is never stored. */
  code_hash: Buffer;
  punishment_id: string;
  player_uuid: string;
  player_name: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UnappealablePunishmentsTable {
  network_id: number;
  punishment_id: string;
  marked_by: string;
  marked_at: number;
}

export interface RateBucketsTable {
  bucket_key: string;
  tokens: number;
  refilled_at: number;
  /** Tokens the last reservation handed out (read back by the reserving statement). */
  granted: number;
}

export interface FreezesTable {
  network_id: number;
  /** Lower case. */
  player_uuid: string;
  player_name: string;
  reason: string;
  issuer_name: string;
  /** The server whose key froze the player; null when frozen from the panel. */
  server_name: string | null;
  frozen_at: number;
}

/** A staff note on a player or a comment on a punishment; never shown to players. */
export interface StaffNotesTable {
  id: AutoId;
  network_id: number;
  subject_kind: 'player' | 'punishment';
  subject_id: string;
  author_name: string;
  author_via: 'panel' | 'game';
  text: string;
  created_at: number;
  edited_at: number | null;
}

/** Every table of the service, by name. */
export interface ServiceTables {
  service_networks: NetworksTable;
  service_servers: ServersTable;
  service_retired_keys: RetiredKeysTable;
  service_players: PlayersTable;
  service_punishments: PunishmentsTable;
  service_evidence: EvidenceTable;
  service_acknowledgements: AcknowledgementsTable;
  service_notifications: NotificationsTable;
  service_pardons: PardonsTable;
  service_idempotency_keys: IdempotencyKeysTable;
  service_player_ips: PlayerIpsTable;
  service_stream_heads: StreamHeadsTable;
  service_stream_changes: StreamChangesTable;
  service_tickets: TicketsTable;
  service_ticket_replies: TicketRepliesTable;
  service_migration_uploads: MigrationUploadsTable;
  service_migration_chunks: MigrationChunksTable;
  service_migration_reports: MigrationReportsTable;
  service_webhooks: WebhooksTable;
  service_webhook_deliveries: WebhookDeliveriesTable;
  service_webhook_log: WebhookLogTable;
  service_panel_roles: PanelRolesTable;
  service_panel_accounts: PanelAccountsTable;
  service_panel_sessions: PanelSessionsTable;
  service_panel_recovery_codes: PanelRecoveryCodesTable;
  service_panel_devices: PanelDevicesTable;
  service_panel_two_factor_roles: PanelTwoFactorRolesTable;
  service_audit_log: AuditLogTable;
  service_appeals: AppealsTable;
  service_appeal_codes: AppealCodesTable;
  service_unappealable_punishments: UnappealablePunishmentsTable;
  service_rate_buckets: RateBucketsTable;
  service_ticket_punishments: TicketPunishmentsTable;
  service_warning_ladders: WarningLaddersTable;
  service_warning_ladder_steps: WarningLadderStepsTable;
  service_freezes: FreezesTable;
  service_staff_role_limits: StaffRoleLimitsTable;
  service_staff_notes: StaffNotesTable;
  service_chat_lines: ChatLinesTable;
  service_chat_log_batches: ChatLogBatchesTable;
  service_chat_log_networks: ChatLogNetworksTable;
}

/** A network's warning ladder (004-ladders). */
export interface WarningLaddersTable {
  network_id: number;
  /** Named in the reason of every punishment the ladder issues. */
  name: string;
  /** How long a warning counts towards the ladder after it was given. */
  warning_lifetime_ms: number;
  updated_at: number;
}

/** One step of a network's warning ladder: what the warning that makes `warnings` live warnings issues. */
export interface WarningLadderStepsTable {
  network_id: number;
  warnings: number;
  type_ordinal: number;
  /** Milliseconds; -1 permanent. */
  duration: number;
}

/** A punishment issued from a ticket, or created with the ticket among its attached tickets. */
export interface TicketPunishmentsTable {
  network_id: number;
  ticket_id: string;
  punishment_id: string;
  created_at: number;
}

/** What a panel role may issue (issue 34, point 4); null: no limit of that kind. */
export interface StaffRoleLimitsTable {
  network_id: number;
  role: string;
  ban_max_ms: number | null;
  mute_max_ms: number | null;
  hourly_max: number | null;
  updated_at: number;
}

/** One chat line or command a player sent on a server (007-chat-logs). */
export interface ChatLinesTable {
  id: AutoId;
  network_id: number;
  /** The server whose key sent the line. */
  server_name: string;
  /** Lower case. */
  player_uuid: string;
  player_name: string;
  kind: 'chat' | 'command';
  text: string;
  at: number;
}

/** A chat log batch already stored: sent again, it is answered without storing it twice. */
export interface ChatLogBatchesTable {
  network_id: number;
  batch_id: string;
  received_at: number;
}

/** A network's chat log retention, size bound (null: the defaults) and how many lines it holds. */
export interface ChatLogNetworksTable {
  network_id: number;
  retention_days: number | null;
  max_lines: number | null;
  stored_lines: Generated<number>;
}
