CREATE TABLE schema_migrations (
    component TEXT NOT NULL,
    version INTEGER NOT NULL,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL,
    PRIMARY KEY (component, version)
  );
INSERT INTO "schema_migrations" VALUES ('service', 1, 'networks, players, punishments, tickets, migrations', 1795835842426);
INSERT INTO "schema_migrations" VALUES ('service', 2, 'login check: last name, address and server seen; pending notifications by player', 1795835842427);
INSERT INTO "schema_migrations" VALUES ('service', 3, 'pardons (extension)', 1795835842427);
INSERT INTO "schema_migrations" VALUES ('service', 4, 'idempotency keys of creations (extension)', 1795835842428);
INSERT INTO "schema_migrations" VALUES ('service', 5, 'ban evasion (extension): addresses seen per player, IP bans and linked bans by data', 1795835842428);
INSERT INTO "schema_migrations" VALUES ('service', 6, 'indexes for a network of 1,000,000 punishments: IP bans by prefix key, active punishments of a player', 1795835842430);
INSERT INTO "schema_migrations" VALUES ('service', 7, 'stream change log: a sequence number per network for every change of a punishment', 1795835842431);
INSERT INTO "schema_migrations" VALUES ('service', 8, 'address history retention: logins found by age for pruning', 1795835842431);
INSERT INTO "schema_migrations" VALUES ('service', 9, 'tickets from the game (extension) and durable webhooks per network', 1795835842433);
INSERT INTO "schema_migrations" VALUES ('service', 10, 'staff actions on tickets (claim, close) and notices with their own text (staff replies)', 1795835842435);
INSERT INTO "schema_migrations" VALUES ('service', 11, 'panel: staff accounts, roles, sessions, audit log; dashboard indexes', 1795835842436);
INSERT INTO "schema_migrations" VALUES ('service', 12, 'panel: public ban list switch and kind index, appeals, uploads from the panel', 1795835842439);
INSERT INTO "schema_migrations" VALUES ('service', 13, 'panel: the staff ticket list by type, assignee and status', 1795835842440);
INSERT INTO "schema_migrations" VALUES ('service', 14, 'migration imports leased to one instance, their files kept in the database while they run', 1795835842442);
INSERT INTO "schema_migrations" VALUES ('service', 15, 'servers and keys: when a key was set, removed servers, retired keys in their grace period', 1795835842444);
INSERT INTO "schema_migrations" VALUES ('service', 16, 'panel: two-factor secrets and recovery codes, trusted login devices, roles requiring two-factor', 1795835842447);
INSERT INTO "schema_migrations" VALUES ('service', 17, 'appeals: one-time appeal codes, unappealable punishments, re-appeal cooldown', 1795835842448);
INSERT INTO "schema_migrations" VALUES ('service', 18, 'public pages: the issuer label a network chooses instead of staff usernames', 1795835842450);
CREATE TABLE service_networks (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
      , public_list INTEGER NOT NULL DEFAULT 0, appeal_cooldown_hours INTEGER NOT NULL DEFAULT 168, public_issuer_label TEXT);
INSERT INTO "service_networks" VALUES (1, 'alpha', 1, 24, 'The Council');
CREATE TABLE service_servers (
        id INTEGER PRIMARY KEY,
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        name TEXT NOT NULL,
        key_hash BLOB NOT NULL UNIQUE, key_set_at INTEGER, removed_at INTEGER,
        UNIQUE (network_id, name)
      );
INSERT INTO "service_servers" VALUES (1, 1, 'lobby', X'31fd29a009954184c2a42a7765a79aa1e607a252735dd81734efd1bf5960d883', 1795835842458, NULL);
CREATE TABLE service_players (
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        uuid TEXT NOT NULL,
        name TEXT NOT NULL, last_ip TEXT, last_server TEXT, last_login_at INTEGER,
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
        updated_at INTEGER NOT NULL, ip_ban_key TEXT, expiry_announced_at INTEGER,
        PRIMARY KEY (network_id, id)
      );
INSERT INTO "service_punishments" VALUES (1, 'p1', '069a79f4-44e9-4726-a5be-fca90e38aaf5', 'Notch', 'mod', NULL, 2, 'griefing', -1, NULL, 'active', NULL, NULL, NULL, 1799989200000, NULL, 1799989200000, NULL, NULL);
INSERT INTO "service_punishments" VALUES (1, 'p2', '853c80ef-3c37-49fd-aa49-938b674adae6', 'jeb_', 'mod', NULL, 1, 'griefing', -1, NULL, 'active', NULL, NULL, NULL, 1799996400000, NULL, 1799996400000, NULL, NULL);
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
        acknowledged_at INTEGER, message TEXT,
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
        updated_at INTEGER NOT NULL, created_server TEXT, replay_url TEXT, chat_messages TEXT, assignee_uuid TEXT, assignee_name TEXT, closed_reason TEXT,
        PRIMARY KEY (network_id, id)
      );
INSERT INTO "service_tickets" VALUES (1, 'a1', 'appeal', 'Appeal', 'I did not grief', 'Open', 'normal', '069a79f4-44e9-4726-a5be-fca90e38aaf5', 'Notch', NULL, NULL, '["appeal"]', 1799992800000, 1799992800000, NULL, NULL, '[]', NULL, NULL, NULL);
INSERT INTO "service_tickets" VALUES (1, 'a2', 'appeal', 'Appeal', 'I did not grief', 'Open', 'normal', '069a79f4-44e9-4726-a5be-fca90e38aaf5', 'Notch', NULL, NULL, '["appeal"]', 1800000000000, 1800000000000, NULL, NULL, '[]', NULL, NULL, NULL);
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
CREATE TABLE service_idempotency_keys (
        network_id INTEGER NOT NULL,
        idempotency_key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        punishment_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, idempotency_key)
      ) WITHOUT ROWID;
CREATE TABLE service_player_ips (
        network_id INTEGER NOT NULL REFERENCES service_networks(id),
        ip TEXT NOT NULL,
        uuid TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        PRIMARY KEY (network_id, ip, uuid)
      ) WITHOUT ROWID;
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
INSERT INTO "service_stream_changes" VALUES (1, 1, 'p1');
INSERT INTO "service_stream_changes" VALUES (1, 2, 'p2');
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
CREATE TABLE service_panel_roles (
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      name TEXT NOT NULL,
      permissions TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, name)
    ) WITHOUT ROWID;
INSERT INTO "service_panel_roles" VALUES (1, 'judge', '["pardon","appeals"]', 1800000000000);
CREATE TABLE service_panel_accounts (
      id INTEGER PRIMARY KEY,
      network_id INTEGER REFERENCES service_networks(id),
      username TEXT NOT NULL COLLATE NOCASE UNIQUE,
      password_hash TEXT NOT NULL,
      role TEXT NOT NULL,
      disabled INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    , totp_secret TEXT, totp_pending_secret TEXT, totp_last_step INTEGER);
INSERT INTO "service_panel_accounts" VALUES (1, 1, 'Alice', 'argon2-hash', 'judge', 0, 1800000000000, 1800000000000, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', NULL, 100);
CREATE TABLE service_panel_sessions (
      id_hash BLOB PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    , stage TEXT NOT NULL DEFAULT 'full') WITHOUT ROWID;
INSERT INTO "service_panel_sessions" VALUES (X'3f3af1ecebbd1410ab417ec0d27bbfcb5d340e177ae159b59fc8626c2dfd9175', 1, 1, 1800000000000, 1800003600000, 'code');
CREATE TABLE service_audit_log (
      id INTEGER PRIMARY KEY,
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      actor TEXT NOT NULL,
      via TEXT NOT NULL,
      action TEXT NOT NULL,
      subject TEXT,
      detail TEXT,
      created_at INTEGER NOT NULL
    );
CREATE TABLE service_appeals (
      network_id INTEGER NOT NULL,
      ticket_id TEXT NOT NULL,
      punishment_id TEXT NOT NULL,
      token_hash BLOB NOT NULL UNIQUE,
      player_name TEXT NOT NULL,
      status TEXT NOT NULL,
      answer TEXT,
      decided_by TEXT,
      decided_at INTEGER,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, ticket_id),
      FOREIGN KEY (network_id, ticket_id) REFERENCES service_tickets(network_id, id),
      FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
    );
INSERT INTO "service_appeals" VALUES (1, 'a1', 'p1', X'6a715dbfde13eff92315a1c2c753e222b348e0127e1fedfab141cc91cf747a81', 'Notch', 'denied', 'No.', 'mod', 1799996400000, 1799992800000);
INSERT INTO "service_appeals" VALUES (1, 'a2', 'p1', X'15423a2ba1fad409494911aca2d9dbe0095e78607b5f789897bc844db1277955', 'Notch', 'open', NULL, NULL, NULL, 1800000000000);
CREATE TABLE "service_migration_uploads" (
      id TEXT PRIMARY KEY,
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      server_id INTEGER REFERENCES service_servers(id),
      uploaded_by TEXT,
      file_size INTEGER NOT NULL,
      status TEXT NOT NULL,
      processed INTEGER NOT NULL,
      total INTEGER NOT NULL,
      message TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    , leased_by TEXT, lease_expires_at INTEGER NOT NULL DEFAULT 0, stored_chunks INTEGER, tally TEXT);
CREATE TABLE service_migration_chunks (
      upload_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      data BLOB NOT NULL,
      PRIMARY KEY (upload_id, seq)
    ) WITHOUT ROWID;
CREATE TABLE service_retired_keys (
      key_hash BLOB NOT NULL PRIMARY KEY,
      server_id INTEGER NOT NULL REFERENCES service_servers(id),
      retired_at INTEGER NOT NULL,
      valid_until INTEGER NOT NULL
    ) WITHOUT ROWID;
CREATE TABLE service_panel_recovery_codes (
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      code_hash BLOB NOT NULL,
      created_at INTEGER NOT NULL,
      used_at INTEGER,
      PRIMARY KEY (account_id, code_hash)
    ) WITHOUT ROWID;
INSERT INTO "service_panel_recovery_codes" VALUES (1, X'1e9ea7a003ea4eda3c3240e40f6afaac597022402477aa3a6ed98a4258f5b297', 1800000000000, NULL);
INSERT INTO "service_panel_recovery_codes" VALUES (1, X'd9ff394d72521b0edfaa61056d135d810f1377a280ae03be3fcbf64607eaceb3', 1800000000000, NULL);
CREATE TABLE service_panel_devices (
      token_hash BLOB PRIMARY KEY,
      account_id INTEGER NOT NULL REFERENCES service_panel_accounts(id) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
INSERT INTO "service_panel_devices" VALUES (X'263a4dbe41488fb87214b0032339dbb9f0c8da14c16dfcf13084bf3c2552eca5', 1, 1800000000000, 1800003600000);
CREATE TABLE service_panel_two_factor_roles (
      network_id INTEGER NOT NULL REFERENCES service_networks(id),
      role TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, role)
    ) WITHOUT ROWID;
INSERT INTO "service_panel_two_factor_roles" VALUES (1, 'judge', 1800000000000);
CREATE TABLE service_appeal_codes (
      network_id INTEGER NOT NULL,
      code_hash BLOB NOT NULL,
      punishment_id TEXT NOT NULL,
      player_uuid TEXT NOT NULL,
      player_name TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL,
      used_at INTEGER,
      PRIMARY KEY (network_id, code_hash),
      FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
    );
INSERT INTO "service_appeal_codes" VALUES (1, X'fc83f19a14cf51776f2520dfa572b08b093af1e22b3f28d2fe1edf8097198c65', 'p1', '069a79f4-44e9-4726-a5be-fca90e38aaf5', 'Notch', 1800000000000, 1800003600000, NULL);
CREATE TABLE service_unappealable_punishments (
      network_id INTEGER NOT NULL,
      punishment_id TEXT NOT NULL,
      marked_by TEXT NOT NULL,
      marked_at INTEGER NOT NULL,
      PRIMARY KEY (network_id, punishment_id),
      FOREIGN KEY (network_id, punishment_id) REFERENCES service_punishments(network_id, id)
    );
INSERT INTO "service_unappealable_punishments" VALUES (1, 'p2', 'admin', 1799996400000);
CREATE INDEX service_punishments_recent ON service_punishments (network_id, created_at);
CREATE INDEX service_tickets_creator ON service_tickets (network_id, creator_uuid, created_at);
CREATE INDEX service_idempotency_keys_age ON service_idempotency_keys (created_at);
CREATE INDEX service_punishments_linked_ban ON service_punishments (network_id, json_extract(data, '$.linkedBanId'))
        WHERE json_extract(data, '$.linkedBanId') IS NOT NULL;
CREATE INDEX service_punishments_ip_ban ON service_punishments (network_id, ip_ban_key)
        WHERE ip_ban_key IS NOT NULL;
CREATE INDEX service_punishments_target_status ON service_punishments (network_id, target_uuid, status, created_at);
CREATE INDEX service_punishments_status_created ON service_punishments (network_id, status, created_at);
CREATE INDEX service_notifications_pending_of_player ON service_notifications (network_id, player_uuid, created_at)
        WHERE acknowledged_at IS NULL;
CREATE INDEX service_players_name ON service_players (network_id, name COLLATE NOCASE, last_login_at);
CREATE INDEX service_player_ips_of_player ON service_player_ips (network_id, uuid, last_seen_at);
CREATE INDEX service_evidence_punishment ON service_evidence (network_id, punishment_id);
CREATE INDEX service_migration_reports_network ON service_migration_reports (network_id);
CREATE INDEX service_player_ips_age ON service_player_ips (last_seen_at);
CREATE INDEX service_webhook_deliveries_queue ON service_webhook_deliveries (webhook_id, status, id);
CREATE INDEX service_webhook_log_by_webhook ON service_webhook_log (webhook_id, id);
CREATE INDEX service_punishments_unannounced_end ON service_punishments (started_at + duration)
        WHERE status = 'active' AND duration >= 0 AND started_at IS NOT NULL AND expiry_announced_at IS NULL;
CREATE INDEX service_notifications_unread_text ON service_notifications (network_id, created_at, id)
        WHERE message IS NOT NULL AND acknowledged_at IS NULL;
CREATE INDEX service_panel_accounts_network ON service_panel_accounts (network_id, username);
CREATE INDEX service_panel_sessions_account ON service_panel_sessions (account_id);
CREATE INDEX service_panel_sessions_expiry ON service_panel_sessions (expires_at);
CREATE INDEX service_audit_log_network ON service_audit_log (network_id, id);
CREATE INDEX service_punishments_created_type ON service_punishments (network_id, created_at, type_ordinal);
CREATE INDEX service_tickets_created ON service_tickets (network_id, created_at);
CREATE INDEX service_tickets_status_created ON service_tickets (network_id, status, created_at);
CREATE INDEX service_punishments_public_kind ON service_punishments (network_id, (CASE WHEN status = 'warning' THEN 'warning' WHEN type_ordinal = 0 THEN 'kick' WHEN type_ordinal IN (1, 6, 7) THEN 'mute' ELSE 'ban' END), created_at);
CREATE INDEX service_punishments_player_history ON service_punishments (network_id, target_uuid, created_at);
CREATE UNIQUE INDEX service_appeals_open ON service_appeals (network_id, punishment_id) WHERE status = 'open';
CREATE INDEX service_migration_uploads_network ON service_migration_uploads (network_id, created_at);
CREATE INDEX service_tickets_type_created ON service_tickets (network_id, type, created_at);
CREATE INDEX service_tickets_status_type_created ON service_tickets (network_id, status, type, created_at);
CREATE INDEX service_tickets_assignee_created
      ON service_tickets (network_id, (coalesce(assignee_name, '')), created_at);
CREATE INDEX service_tickets_status_assignee_created
      ON service_tickets (network_id, status, (coalesce(assignee_name, '')), created_at);
CREATE INDEX service_tickets_assignee_type_created
      ON service_tickets (network_id, (coalesce(assignee_name, '')), type, created_at);
CREATE INDEX service_tickets_status_assignee_type_created
      ON service_tickets (network_id, status, (coalesce(assignee_name, '')), type, created_at);
CREATE INDEX service_migration_uploads_lease ON service_migration_uploads (status, lease_expires_at);
CREATE INDEX service_retired_keys_server ON service_retired_keys (server_id, valid_until);
CREATE INDEX service_panel_devices_account ON service_panel_devices (account_id, created_at);
CREATE INDEX service_panel_devices_expiry ON service_panel_devices (expires_at);
CREATE INDEX service_appeal_codes_holder ON service_appeal_codes (network_id, punishment_id, player_uuid);
CREATE INDEX service_appeals_punishment ON service_appeals (network_id, punishment_id, decided_at);
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
