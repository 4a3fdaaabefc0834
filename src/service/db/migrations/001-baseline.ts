import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import type { DialectChoices } from '../dialect/choices.js';

/**
 * A punishment's kind on the public list, as SQL over its row: a warning (status `warning`), a
 * kick (ordinal 0), a mute (the catalogue's mute ordinals 1, 6, 7) or else a ban. The index below
 * is built on this exact text, so statements must use it unchanged to read through the index;
 * test/service/public-kinds.test.ts checks it against the type catalogue.
 */
export const PUBLIC_KIND_SQL =
  "CASE WHEN status = 'warning' THEN 'warning' WHEN type_ordinal = 0 THEN 'kick' WHEN type_ordinal IN (1, 6, 7) THEN 'mute' ELSE 'ban' END";

/**
 * Who holds a ticket as the staff list filters it: a name, or `''` for nobody. The indexes below
 * are built on this exact text, so the list's statements must use it unchanged to read through them.
 */
export const TICKET_ASSIGNEE_SQL = "coalesce(assignee_name, '')";

// biome-ignore lint/suspicious/noExplicitAny: the schema builder knows no table before it is made
type Db = Kysely<any>;

/** The wait after a denied appeal every network starts with: a week. */
const APPEAL_COOLDOWN_HOURS = 168;

const raw = (text: string) => sql`(${sql.raw(text)})`;

async function networksAndPlayers(db: Db, d: DialectChoices): Promise<void> {
  const { bigint, bytes, boolean } = d.schema;
  await d.schema
    .withAutoId(db.schema.createTable('service_networks'))
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('public_list', boolean, (c) => c.notNull().defaultTo(false))
    // Hours a punishment waits after a denied appeal before it may be appealed again.
    .addColumn('appeal_cooldown_hours', 'integer', (c) => c.notNull().defaultTo(APPEAL_COOLDOWN_HOURS))
    // The name public pages give every issuer, so no staff username is shown to strangers; null: "Staff".
    .addColumn('public_issuer_label', 'text')
    .execute();
  await d.schema
    .withAutoId(db.schema.createTable('service_servers'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', bytes, (c) => c.notNull().unique())
    // Null for a server whose key was set before keys were managed.
    .addColumn('key_set_at', bigint)
    // A removed server keeps its row (acknowledgements and uploads name it); none of its keys is accepted.
    .addColumn('removed_at', bigint)
    .addUniqueConstraint('service_servers_network_name', ['network_id', 'name'])
    .execute();
  // A key replaced by a rotation, accepted until the end of the grace period the operator chose.
  await d.schema
    .keyedOnly(db.schema.createTable('service_retired_keys'))
    .addColumn('key_hash', bytes, (c) => c.notNull().primaryKey())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('service_servers.id'))
    .addColumn('retired_at', bigint, (c) => c.notNull())
    .addColumn('valid_until', bigint, (c) => c.notNull())
    .execute();
  await index(db, 'service_retired_keys_server', 'service_retired_keys', ['server_id', 'valid_until']);
  await d.schema
    .keyedOnly(db.schema.createTable('service_players'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('uuid', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('last_ip', 'text')
    .addColumn('last_server', 'text')
    .addColumn('last_login_at', bigint)
    .addPrimaryKeyConstraint('service_players_pk', ['network_id', 'uuid'])
    .execute();
  await d.schema.playerNameIndexes(db);
  await d.schema
    .keyedOnly(db.schema.createTable('service_player_ips'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('uuid', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', bigint, (c) => c.notNull())
    .addColumn('last_seen_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_player_ips_pk', ['network_id', 'ip', 'uuid'])
    .execute();
  await index(db, 'service_player_ips_of_player', 'service_player_ips', ['network_id', 'uuid', 'last_seen_at']);
  await index(db, 'service_player_ips_age', 'service_player_ips', ['last_seen_at']);
}

async function punishments(db: Db, d: DialectChoices): Promise<void> {
  const { bigint, boolean } = d.schema;
  await d.schema
    .withInsertionOrder(db.schema.createTable('service_punishments'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('target_uuid', 'text', (c) => c.notNull())
    .addColumn('target_name', 'text', (c) => c.notNull())
    .addColumn('issuer_name', 'text', (c) => c.notNull())
    .addColumn('issuer_id', 'text')
    .addColumn('type_ordinal', 'integer', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('duration', bigint, (c) => c.notNull())
    .addColumn('severity', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('data', 'text')
    .addColumn('ip_ban_key', 'text')
    .addColumn('notes', 'text')
    .addColumn('attached_ticket_ids', 'text')
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('started_at', bigint)
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .addColumn('expiry_announced_at', bigint)
    .addPrimaryKeyConstraint('service_punishments_pk', ['network_id', 'id'])
    .execute();
  // Indexes ending in the insertion order: pages of these read their keyset (created_at, order) from the index.
  const ordered = d.schema.orderedIndexColumns;
  const table = 'service_punishments';
  await index(db, 'service_punishments_recent', table, ordered(['network_id', 'created_at']));
  await index(db, 'service_punishments_status_created', table, ordered(['network_id', 'status', 'created_at']));
  await index(db, 'service_punishments_player_history', table, ordered(['network_id', 'target_uuid', 'created_at']));
  await index(
    db,
    'service_punishments_public_kind',
    table,
    ordered(['network_id', raw(PUBLIC_KIND_SQL), 'created_at']),
  );
  await index(db, 'service_punishments_target_status', table, ['network_id', 'target_uuid', 'status', 'created_at']);
  await index(db, 'service_punishments_created_type', table, ['network_id', 'created_at', 'type_ordinal']);
  await db.schema
    .createIndex('service_punishments_ip_ban')
    .on(table)
    .columns(['network_id', 'ip_ban_key'])
    .where('ip_ban_key', 'is not', null)
    .execute();
  const linkedBan = d.jsonText('data', 'linkedBanId');
  await db.schema
    .createIndex('service_punishments_linked_ban')
    .on(table)
    .columns(['network_id', linkedBan])
    .where(linkedBan, 'is not', null)
    .execute();
  await db.schema
    .createIndex('service_punishments_unannounced_end')
    .on(table)
    .expression(sql`(started_at + duration)`)
    .where(sql<boolean>`status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL`)
    .execute();

  await d.schema
    .withAutoId(db.schema.createTable('service_evidence'))
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('issuer_name', 'text', (c) => c.notNull())
    .addColumn('evidence_url', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addForeignKeyConstraint('service_evidence_punishment_fk', ['network_id', 'punishment_id'], table, [
      'network_id',
      'id',
    ])
    .execute();
  await index(db, 'service_evidence_punishment', 'service_evidence', ['network_id', 'punishment_id']);
  await d.schema
    .withAutoId(db.schema.createTable('service_acknowledgements'))
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('server_id', 'integer', (c) => c.notNull().references('service_servers.id'))
    .addColumn('player_uuid', 'text', (c) => c.notNull())
    .addColumn('executed_at', bigint, (c) => c.notNull())
    .addColumn('success', boolean, (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('received_at', bigint, (c) => c.notNull())
    .addForeignKeyConstraint('service_acknowledgements_punishment_fk', ['network_id', 'punishment_id'], table, [
      'network_id',
      'id',
    ])
    // A retried identical acknowledgement is recorded once.
    .addUniqueConstraint('service_acknowledgements_once', [
      'network_id',
      'punishment_id',
      'server_id',
      'executed_at',
      'success',
    ])
    .execute();
  await d.schema
    .keyedOnly(db.schema.createTable('service_pardons'))
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('issuer_name', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('server_id', 'integer', (c) => c.references('service_servers.id'))
    .addColumn('pardoned_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_pardons_pk', ['network_id', 'punishment_id'])
    .addForeignKeyConstraint('service_pardons_punishment_fk', ['network_id', 'punishment_id'], table, [
      'network_id',
      'id',
    ])
    .execute();
  await d.schema
    .keyedOnly(db.schema.createTable('service_idempotency_keys'))
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_idempotency_keys_pk', ['network_id', 'idempotency_key'])
    .execute();
  await index(db, 'service_idempotency_keys_age', 'service_idempotency_keys', ['created_at']);
}

async function notificationsAndStream(db: Db, d: DialectChoices): Promise<void> {
  const { bigint } = d.schema;
  await d.schema
    .keyedOnly(db.schema.createTable('service_notifications'))
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('player_uuid', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('acknowledged_at', bigint)
    .addColumn('message', 'text')
    .addPrimaryKeyConstraint('service_notifications_pk', ['network_id', 'id'])
    .execute();
  await db.schema
    .createIndex('service_notifications_pending_of_player')
    .on('service_notifications')
    .columns(['network_id', 'player_uuid', 'created_at'])
    .where(sql<boolean>`acknowledged_at IS NULL`)
    .execute();
  // Servers poll the network's unread notices with text, to show them to players online anywhere.
  await db.schema
    .createIndex('service_notifications_unread_text')
    .on('service_notifications')
    .columns(['network_id', 'created_at', 'id'])
    .where(sql<boolean>`message IS NOT NULL AND acknowledged_at IS NULL`)
    .execute();
  await db.schema
    .createTable('service_stream_heads')
    .addColumn('network_id', 'integer', (c) => c.primaryKey())
    .addColumn('epoch', 'text', (c) => c.notNull())
    .addColumn('pruned_through', bigint, (c) => c.notNull().defaultTo(0))
    .execute();
  await d.schema
    .keyedOnly(db.schema.createTable('service_stream_changes'))
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('sequence', bigint, (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('service_stream_changes_pk', ['network_id', 'sequence'])
    .execute();
  // Triggers, so that no writer (routes, imports, admin, seed) can change a punishment without a sequence.
  await d.schema.streamLogTriggers(db);
}

async function tickets(db: Db, d: DialectChoices): Promise<void> {
  const { bigint } = d.schema;
  await d.schema
    .withInsertionOrder(db.schema.createTable('service_tickets'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('creator_uuid', 'text', (c) => c.notNull())
    .addColumn('creator_name', 'text', (c) => c.notNull())
    .addColumn('reported_player_uuid', 'text')
    .addColumn('reported_player_name', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    .addColumn('created_server', 'text')
    .addColumn('replay_url', 'text')
    .addColumn('chat_messages', 'text')
    .addColumn('assignee_uuid', 'text')
    .addColumn('assignee_name', 'text')
    .addColumn('closed_reason', 'text')
    .addPrimaryKeyConstraint('service_tickets_pk', ['network_id', 'id'])
    .execute();
  const table = 'service_tickets';
  const ordered = d.schema.orderedIndexColumns;
  const assignee = raw(TICKET_ASSIGNEE_SQL);
  await index(db, 'service_tickets_creator', table, ['network_id', 'creator_uuid', 'created_at']);
  // The staff list: each filter (status, type, assignee or nobody) leads an index ending in its keyset.
  await index(db, 'service_tickets_created', table, ordered(['network_id', 'created_at']));
  await index(db, 'service_tickets_status_created', table, ordered(['network_id', 'status', 'created_at']));
  await index(db, 'service_tickets_type_created', table, ordered(['network_id', 'type', 'created_at']));
  await index(
    db,
    'service_tickets_status_type_created',
    table,
    ordered(['network_id', 'status', 'type', 'created_at']),
  );
  await index(db, 'service_tickets_assignee_created', table, ordered(['network_id', assignee, 'created_at']));
  await index(
    db,
    'service_tickets_status_assignee_created',
    table,
    ordered(['network_id', 'status', assignee, 'created_at']),
  );
  await index(
    db,
    'service_tickets_assignee_type_created',
    table,
    ordered(['network_id', assignee, 'type', 'created_at']),
  );
  await index(
    db,
    'service_tickets_status_assignee_type_created',
    table,
    ordered(['network_id', 'status', assignee, 'type', 'created_at']),
  );
  await db.schema
    .createTable('service_ticket_replies')
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('author_name', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_ticket_replies_pk', ['network_id', 'ticket_id', 'id'])
    .addForeignKeyConstraint('service_ticket_replies_ticket_fk', ['network_id', 'ticket_id'], table, [
      'network_id',
      'id',
    ])
    .execute();
}

async function migrationsAndWebhooks(db: Db, d: DialectChoices): Promise<void> {
  const { bigint, boolean, bytes } = d.schema;
  await d.schema
    .withInsertionOrder(db.schema.createTable('service_migration_uploads'))
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    // Null for an upload from the panel, which names the staff member in uploaded_by.
    .addColumn('server_id', 'integer', (c) => c.references('service_servers.id'))
    .addColumn('uploaded_by', 'text')
    .addColumn('file_size', bigint, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('processed', bigint, (c) => c.notNull())
    .addColumn('total', bigint, (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    // The one instance importing the file, until its lease runs out.
    .addColumn('leased_by', 'text')
    .addColumn('lease_expires_at', bigint, (c) => c.notNull().defaultTo(0))
    // Null until the whole file is stored: an import whose file never was cannot be taken over.
    .addColumn('stored_chunks', 'integer')
    // What the batches committed so far counted (JSON), so a resumed import adds to it.
    .addColumn('tally', 'text')
    .execute();
  await index(db, 'service_migration_uploads_network', 'service_migration_uploads', ['network_id', 'created_at']);
  await index(db, 'service_migration_uploads_lease', 'service_migration_uploads', ['status', 'lease_expires_at']);
  // An uploaded file, kept while it is imported so another instance can read it.
  await d.schema
    .keyedOnly(db.schema.createTable('service_migration_chunks'))
    .addColumn('upload_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_migration_chunks_pk', ['upload_id', 'seq'])
    .execute();
  await d.schema
    .withAutoId(db.schema.createTable('service_migration_reports'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('server_id', 'integer', (c) => c.notNull().references('service_servers.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('processed', bigint)
    .addColumn('total', bigint)
    .addColumn('reported_at', bigint, (c) => c.notNull())
    .execute();
  await index(db, 'service_migration_reports_network', 'service_migration_reports', ['network_id']);

  await d.schema
    .withAutoId(db.schema.createTable('service_webhooks'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('templates', 'text', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('enabled', boolean, (c) => c.notNull())
    // The receiver asked for no request before this time (a 429's retry time).
    .addColumn('blocked_until', bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addUniqueConstraint('service_webhooks_network_name', ['network_id', 'name'])
    .execute();
  // One row per (event, endpoint) until it is delivered; the id is the order per endpoint.
  await d.schema
    .withAutoId(db.schema.createTable('service_webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('service_webhooks.id').onDelete('cascade'))
    .addColumn('delivery_id', 'text', (c) => c.notNull().unique())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('waits', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('available_at', bigint, (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    // While an instance sends this delivery, no other takes it before the lease ends.
    .addColumn('leased_until', bigint, (c) => c.notNull().defaultTo(0))
    .addColumn('leased_by', 'text')
    .execute();
  await index(db, 'service_webhook_deliveries_queue', 'service_webhook_deliveries', ['webhook_id', 'status', 'id']);
  await d.schema
    .withAutoId(db.schema.createTable('service_webhook_log'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('service_webhooks.id').onDelete('cascade'))
    .addColumn('delivery_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('attempted_at', bigint, (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('excerpt', 'text', (c) => c.notNull())
    .execute();
  await index(db, 'service_webhook_log_by_webhook', 'service_webhook_log', ['webhook_id', 'id']);
  // Rate-limit token buckets shared by every instance (several instances on PostgreSQL).
  await db.schema
    .createTable('service_rate_buckets')
    .addColumn('bucket_key', 'text', (c) => c.primaryKey())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('refilled_at', bigint, (c) => c.notNull())
    // Tokens the last reservation handed out (read back by the reserving statement).
    .addColumn('granted', 'double precision', (c) => c.notNull())
    .execute();
  await index(db, 'service_rate_buckets_idle', 'service_rate_buckets', ['refilled_at']);
}

async function panel(db: Db, d: DialectChoices): Promise<void> {
  const { bigint, bytes, boolean } = d.schema;
  // Roles beside the built-in ones (src/service/panel/permissions.ts), per network.
  await d.schema
    .keyedOnly(db.schema.createTable('service_panel_roles'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_panel_roles_pk', ['network_id', 'name'])
    .execute();
  // network_id NULL: a superuser of every network. Usernames are unique in any case.
  await d.schema
    .withAutoId(db.schema.createTable('service_panel_accounts'))
    .addColumn('network_id', 'integer', (c) => c.references('service_networks.id'))
    .addColumn('username', 'text', (c) => d.schema.caseInsensitiveUnique(c.notNull()))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('disabled', boolean, (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('updated_at', bigint, (c) => c.notNull())
    // The confirmed TOTP secret (base32), the one being set up until a code confirms it, and the newest time step
    // a code was accepted for: a code is used once.
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending_secret', 'text')
    .addColumn('totp_last_step', bigint)
    .execute();
  await d.schema.panelAccountIndexes(db);
  // Only the SHA-256 of a session id is stored; network_id is the network the session is looking at.
  await d.schema
    .keyedOnly(db.schema.createTable('service_panel_sessions'))
    .addColumn('id_hash', bytes, (c) => c.primaryKey())
    .addColumn('account_id', 'integer', (c) => c.notNull().references('service_panel_accounts.id').onDelete('cascade'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    // 'code': the password was right and the second factor is still to come; such a session opens no page.
    .addColumn('stage', 'text', (c) => c.notNull().defaultTo('full'))
    .execute();
  await index(db, 'service_panel_sessions_account', 'service_panel_sessions', ['account_id']);
  await index(db, 'service_panel_sessions_expiry', 'service_panel_sessions', ['expires_at']);
  await panelTwoFactor(db, d);
  // Every staff action through the panel or the API.
  await d.schema
    .withAutoId(db.schema.createTable('service_audit_log'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('via', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', bigint, (c) => c.notNull())
    .execute();
  await index(db, 'service_audit_log_network', 'service_audit_log', ['network_id', 'id']);
  // An appeal is a ticket linked to the punishment it appeals, with the hash of the player's private link.
  await db.schema
    .createTable('service_appeals')
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', bytes, (c) => c.notNull().unique())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('answer', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', bigint)
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_appeals_pk', ['network_id', 'ticket_id'])
    .addForeignKeyConstraint('service_appeals_ticket_fk', ['network_id', 'ticket_id'], 'service_tickets', [
      'network_id',
      'id',
    ])
    .addForeignKeyConstraint('service_appeals_punishment_fk', ['network_id', 'punishment_id'], 'service_punishments', [
      'network_id',
      'id',
    ])
    .execute();
  // One open appeal per punishment.
  await db.schema
    .createIndex('service_appeals_open')
    .unique()
    .on('service_appeals')
    .columns(['network_id', 'punishment_id'])
    .where(sql<boolean>`status = 'open'`)
    .execute();
  // A punishment's appeals by decision time: the last denial starts the wait before another.
  await index(db, 'service_appeals_punishment', 'service_appeals', ['network_id', 'punishment_id', 'decided_at']);
  await appealCodes(db, d);
}

async function panelTwoFactor(db: Db, d: DialectChoices): Promise<void> {
  const { bigint, bytes } = d.schema;
  const account = (c: ColumnDefinitionBuilder) =>
    c.notNull().references('service_panel_accounts.id').onDelete('cascade');
  // Only the SHA-256 of each recovery code is kept.
  await d.schema
    .keyedOnly(db.schema.createTable('service_panel_recovery_codes'))
    .addColumn('account_id', 'integer', account)
    .addColumn('code_hash', bytes, (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('used_at', bigint)
    .addPrimaryKeyConstraint('service_panel_recovery_codes_pk', ['account_id', 'code_hash'])
    .execute();
  // A browser that logged in to this account: the SHA-256 of the token of its device cookie.
  await d.schema
    .keyedOnly(db.schema.createTable('service_panel_devices'))
    .addColumn('token_hash', bytes, (c) => c.primaryKey())
    .addColumn('account_id', 'integer', account)
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .execute();
  await index(db, 'service_panel_devices_account', 'service_panel_devices', ['account_id', 'created_at']);
  await index(db, 'service_panel_devices_expiry', 'service_panel_devices', ['expires_at']);
  // Roles (built-in or custom) whose holders must use two-factor in this network.
  await d.schema
    .keyedOnly(db.schema.createTable('service_panel_two_factor_roles'))
    .addColumn('network_id', 'integer', (c) => c.notNull().references('service_networks.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_panel_two_factor_roles_pk', ['network_id', 'role'])
    .execute();
}

async function appealCodes(db: Db, d: DialectChoices): Promise<void> {
  const { bigint, bytes } = d.schema;
  const punishment = ['network_id', 'punishment_id'] as const;
  // One-time codes a game server hands a player for one punishment (only their hash).
  await db.schema
    .createTable('service_appeal_codes')
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('code_hash', bytes, (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('player_uuid', 'text', (c) => c.notNull())
    .addColumn('player_name', 'text', (c) => c.notNull())
    .addColumn('created_at', bigint, (c) => c.notNull())
    .addColumn('expires_at', bigint, (c) => c.notNull())
    .addColumn('used_at', bigint)
    .addPrimaryKeyConstraint('service_appeal_codes_pk', ['network_id', 'code_hash'])
    .addForeignKeyConstraint('service_appeal_codes_punishment_fk', [...punishment], 'service_punishments', [
      'network_id',
      'id',
    ])
    .execute();
  await index(db, 'service_appeal_codes_holder', 'service_appeal_codes', [...punishment, 'player_uuid']);
  // Punishments staff marked unappealable.
  await db.schema
    .createTable('service_unappealable_punishments')
    .addColumn('network_id', 'integer', (c) => c.notNull())
    .addColumn('punishment_id', 'text', (c) => c.notNull())
    .addColumn('marked_by', 'text', (c) => c.notNull())
    .addColumn('marked_at', bigint, (c) => c.notNull())
    .addPrimaryKeyConstraint('service_unappealable_punishments_pk', [...punishment])
    .addForeignKeyConstraint('service_unappealable_punishments_punishment_fk', [...punishment], 'service_punishments', [
      'network_id',
      'id',
    ])
    .execute();
}

function index(
  db: Db,
  name: string,
  table: string,
  columns: Parameters<ReturnType<Db['schema']['createIndex']>['columns']>[0],
) {
  return db.schema.createIndex(name).on(table).columns(columns).execute();
}

/** Creates the service's tables as they stood at the last step of Bailiff's hand-written schemas. */
export async function createBaseline(db: Db, d: DialectChoices): Promise<void> {
  await networksAndPlayers(db, d);
  await punishments(db, d);
  await notificationsAndStream(db, d);
  await tickets(db, d);
  await migrationsAndWebhooks(db, d);
  await panel(db, d);
}
