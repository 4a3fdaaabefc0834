import type { SchemaMigration } from '../../db/schema-migrations.js';
import { APPEAL_CODES } from './appeal-codes.js';
import { MIGRATION_LEASES } from './migration-leases.js';
import { NETWORK_SIZE_INDEXES } from './network-size-indexes.js';
import { PANEL_TABLES } from './panel-tables.js';
import { PANEL_TWO_FACTOR } from './panel-two-factor.js';
import { PUBLIC_ISSUER_LABEL } from './public-issuer-label.js';
import { PUBLIC_LIST_AND_APPEALS } from './public-list-and-appeals.js';
import { SERVER_KEYS } from './server-keys.js';
import { TICKET_LIST_INDEXES } from './ticket-list-indexes.js';

/** Tables of the reference service. Times are epoch milliseconds; UUIDs are stored lower-case. */
export const SERVICE_SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    name: 'networks, players, punishments, tickets, migrations',
    up: `
      CREATE TABLE service_networks (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
      );
      CREATE TABLE service_servers (
        id INTEGER PRIMARY KEY,
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        name TEXT NOT NULL,
        key_hash BLOB NOT NULL UNIQUE,
        UNIQUE (network_id, name)
      );
      CREATE TABLE service_players (
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        uuid TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (network_id, uuid)
      ) WITHOUT ROWID;
      CREATE TABLE service_punishments (
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        id TEXT NOT NULL,
        target_uuid TEXT NOT NULL,
        target_name TEXT NOT NULL,
        issuer_name TEXT NOT NULL,
        issuer_id TEXT,
        type_ordinal INTEGER NOT NULL,
        reason TEXT NOT NULL,
        duration INTEGER NOT NULL,
        severity TEXT,
        status TEXT NOT NULL,
        data TEXT,
        notes TEXT,
        attached_ticket_ids TEXT,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, id)
      );
      CREATE INDEX service_punishments_recent ON service_punishments (network_id, created_at);
      CREATE INDEX service_punishments_target ON service_punishments (network_id, target_uuid);
      CREATE INDEX service_punishments_status ON service_punishments (network_id, status);
      CREATE TABLE service_evidence (
        id INTEGER PRIMARY KEY,
        network_id INTEGER NOT NULL,
        punishment_id TEXT NOT NULL,
        issuer_name TEXT NOT NULL,
        evidence_url TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
      );
      CREATE TABLE service_acknowledgements (
        id INTEGER PRIMARY KEY,
        network_id INTEGER NOT NULL,
        punishment_id TEXT NOT NULL,
        server_id INTEGER NOT NULL REFERENCES service_servers(id),
        player_uuid TEXT NOT NULL,
        executed_at INTEGER NOT NULL,
        success INTEGER NOT NULL,
        error_message TEXT,
        received_at INTEGER NOT NULL,
        FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id),
        -- A retried identical acknowledgement is recorded once.
        UNIQUE (network_id, punishment_id, server_id, executed_at, success)
      );
      CREATE TABLE service_notifications (
        network_id INTEGER NOT NULL,
        id TEXT NOT NULL,
        player_uuid TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        acknowledged_at INTEGER,
        PRIMARY KEY (network_id, id)
      ) WITHOUT ROWID;
      CREATE TABLE service_tickets (
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        id TEXT NOT NULL,
        type TEXT NOT NULL,
        subject TEXT NOT NULL,
        description TEXT NOT NULL,
        status TEXT NOT NULL,
        priority TEXT NOT NULL,
        creator_uuid TEXT NOT NULL,
        creator_name TEXT NOT NULL,
        reported_player_uuid TEXT,
        reported_player_name TEXT,
        tags TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, id)
      );
      CREATE INDEX service_tickets_creator ON service_tickets (network_id, creator_uuid, created_at);
      CREATE TABLE service_ticket_replies (
        network_id INTEGER NOT NULL,
        ticket_id TEXT NOT NULL,
        id TEXT NOT NULL,
        author_name TEXT NOT NULL,
        message TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, ticket_id, id),
        FOREIGN KEY (network_id, ticket_id) REFERENCES service_tickets(network_id, id)
      );
      CREATE TABLE service_migration_uploads (
        id TEXT PRIMARY KEY,
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        server_id INTEGER NOT NULL REFERENCES service_servers(id),
        file_size INTEGER NOT NULL,
        status TEXT NOT NULL,
        processed INTEGER NOT NULL,
        total INTEGER NOT NULL,
        message TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE service_migration_reports (
        id INTEGER PRIMARY KEY,
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        server_id INTEGER NOT NULL REFERENCES service_servers(id),
        status TEXT NOT NULL,
        message TEXT NOT NULL,
        processed INTEGER,
        total INTEGER,
        reported_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'login check: last name, address and server seen; pending notifications by player',
    up: `
      ALTER TABLE service_players ADD COLUMN last_ip TEXT;
      ALTER TABLE service_players ADD COLUMN last_server TEXT;
      ALTER TABLE service_players ADD COLUMN last_login_at INTEGER;
      CREATE INDEX service_notifications_pending ON service_notifications (network_id, player_uuid)
        WHERE acknowledged_at IS NULL;
    `,
  },
  {
    version: 3,
    name: 'pardons (extension)',
    up: `
      CREATE TABLE service_pardons (
        network_id INTEGER NOT NULL,
        punishment_id TEXT NOT NULL,
        issuer_name TEXT NOT NULL,
        reason TEXT NOT NULL,
        server_id INTEGER REFERENCES service_servers(id),
        pardoned_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, punishment_id),
        FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 4,
    name: 'idempotency keys of creations (extension)',
    up: `
      CREATE TABLE service_idempotency_keys (
        network_id INTEGER NOT NULL,
        idempotency_key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        punishment_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, idempotency_key)
      ) WITHOUT ROWID;
      CREATE INDEX service_idempotency_keys_age ON service_idempotency_keys (created_at);
    `,
  },
  {
    version: 5,
    name: 'ban evasion (extension): addresses seen per player, IP bans and linked bans by data',
    up: `
      CREATE TABLE service_player_ips (
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        ip TEXT NOT NULL,
        uuid TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, ip, uuid)
      ) WITHOUT ROWID;
      CREATE INDEX service_player_ips_player ON service_player_ips (network_id, uuid);
      CREATE INDEX service_punishments_ip_address ON service_punishments (network_id, json_extract(data, '$.ipAddress'))
        WHERE json_extract(data, '$.ipAddress') IS NOT NULL;
      CREATE INDEX service_punishments_linked_ban ON service_punishments (network_id, json_extract(data, '$.linkedBanId'))
        WHERE json_extract(data, '$.linkedBanId') IS NOT NULL;
    `,
  },
  NETWORK_SIZE_INDEXES,
  {
    version: 7,
    name: 'stream change log: a sequence number per network for every change of a punishment',
    up: `
      CREATE TABLE service_stream_heads (
        network_id INTEGER PRIMARY KEY,
        epoch TEXT NOT NULL,
        pruned_through INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE service_stream_changes (
        network_id INTEGER NOT NULL,
        sequence INTEGER NOT NULL,
        punishment_id TEXT NOT NULL,
        PRIMARY KEY (network_id, sequence)
      ) WITHOUT ROWID;
      -- Triggers, so that no writer (routes, imports, admin, seed) can change a punishment without a sequence.
      -- Each appends at the end of the primary key: no other index to keep, so bulk imports stay cheap.
      -- A network's head row (its epoch) is made when the stream first asks for it.
      CREATE TRIGGER service_stream_log_insert AFTER INSERT ON service_punishments BEGIN
        INSERT INTO service_stream_changes (network_id, sequence, punishment_id) VALUES (
          NEW.network_id,
          COALESCE(
            (SELECT MAX(sequence) FROM service_stream_changes WHERE network_id = NEW.network_id),
            (SELECT pruned_through FROM service_stream_heads WHERE network_id = NEW.network_id),
            0
          ) + 1,
          NEW.id);
      END;
      CREATE TRIGGER service_stream_log_update
        AFTER UPDATE OF status, target_uuid, target_name, issuer_name, type_ordinal, reason, duration, severity, data,
          notes, attached_ticket_ids ON service_punishments BEGIN
        INSERT INTO service_stream_changes (network_id, sequence, punishment_id) VALUES (
          NEW.network_id,
          COALESCE(
            (SELECT MAX(sequence) FROM service_stream_changes WHERE network_id = NEW.network_id),
            (SELECT pruned_through FROM service_stream_heads WHERE network_id = NEW.network_id),
            0
          ) + 1,
          NEW.id);
      END;
    `,
  },
  {
    version: 8,
    name: 'address history retention: logins found by age for pruning',
    up: `
      CREATE INDEX service_player_ips_age ON service_player_ips (last_seen_at);
    `,
  },
  {
    version: 9,
    name: 'tickets from the game (extension) and durable webhooks per network',
    up: `
      ALTER TABLE service_tickets ADD COLUMN created_server TEXT;
      ALTER TABLE service_tickets ADD COLUMN replay_url TEXT;
      ALTER TABLE service_tickets ADD COLUMN chat_messages TEXT;
      CREATE TABLE service_webhooks (
        id INTEGER PRIMARY KEY,
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        name TEXT NOT NULL,
        url TEXT NOT NULL,
        events TEXT NOT NULL,
        format TEXT NOT NULL,
        templates TEXT NOT NULL,
        max_attempts INTEGER NOT NULL,
        enabled INTEGER NOT NULL,
        -- The receiver asked for no request before this time (a 429's retry time).
        blocked_until INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        UNIQUE (network_id, name)
      );
      -- One row per (event, endpoint) until it is delivered; the rowid is the order per endpoint.
      CREATE TABLE service_webhook_deliveries (
        id INTEGER PRIMARY KEY,
        webhook_id INTEGER NOT NULL REFERENCES service_webhooks(id) ON DELETE CASCADE,
        delivery_id TEXT NOT NULL UNIQUE,
        event TEXT NOT NULL,
        body TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        waits INTEGER NOT NULL DEFAULT 0,
        available_at INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX service_webhook_deliveries_queue ON service_webhook_deliveries (webhook_id, status, id);
      CREATE TABLE service_webhook_log (
        id INTEGER PRIMARY KEY,
        webhook_id INTEGER NOT NULL REFERENCES service_webhooks(id) ON DELETE CASCADE,
        delivery_id TEXT NOT NULL,
        event TEXT NOT NULL,
        attempted_at INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        status_code INTEGER,
        excerpt TEXT NOT NULL
      );
      CREATE INDEX service_webhook_log_by_webhook ON service_webhook_log (webhook_id, id);
      -- When the end of a temporary punishment was announced (punishment.expired); its status stays.
      ALTER TABLE service_punishments ADD COLUMN expiry_announced_at INTEGER;
      -- Punishments that ended before webhooks existed are not announced.
      UPDATE service_punishments SET expiry_announced_at = 0
        WHERE duration >= 0 AND started_at IS NOT NULL
          AND started_at + duration <= CAST(strftime('%s', 'now') AS INTEGER) * 1000;
      CREATE INDEX service_punishments_unannounced_end ON service_punishments (started_at + duration)
        WHERE status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL;
    `,
  },
  PANEL_TABLES,
  {
    version: 10,
    // The list of open reports reads through service_tickets_status_created (version 11).
    name: 'staff actions on tickets (claim, close) and notices with their own text (staff replies)',
    up: `
      ALTER TABLE service_tickets ADD COLUMN assignee_uuid TEXT;
      ALTER TABLE service_tickets ADD COLUMN assignee_name TEXT;
      ALTER TABLE service_tickets ADD COLUMN closed_reason TEXT;
      -- Null for a punishment's notice, which is worded from the punishment.
      ALTER TABLE service_notifications ADD COLUMN message TEXT;
      -- Servers poll the network's unread notices with text, to show them to players online anywhere.
      CREATE INDEX service_notifications_unread_text ON service_notifications (network_id, created_at, id)
        WHERE message IS NOT NULL AND acknowledged_at IS NULL;
    `,
  },
  PUBLIC_LIST_AND_APPEALS,
  TICKET_LIST_INDEXES,
  MIGRATION_LEASES,
  SERVER_KEYS,
  PANEL_TWO_FACTOR,
  APPEAL_CODES,
  PUBLIC_ISSUER_LABEL,
];
