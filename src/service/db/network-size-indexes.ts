import type { Db } from '../../db/open-db.js';
import type { SchemaMigration } from '../../db/schema-migrations.js';
import { ipBanKeyOfData } from '../store/ip-ban-keys.js';

// Rows whose key is written per batch, so a large file's backfill never holds every row at once.
const BACKFILL_BATCH = 1000;

/** Gives every stored IP ban its prefix key (see store/ip-ban-keys.ts). */
function backfillIpBanKeys(db: Db): void {
  const next = db.prepare<[number, number], { rowid: number; data: string }>(
    `SELECT rowid, data FROM service_punishments
     WHERE json_extract(data, '$.ipAddress') IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT ?`,
  );
  const setKey = db.prepare<[string | null, number]>('UPDATE service_punishments SET ip_ban_key = ? WHERE rowid = ?');
  let after = 0;
  for (;;) {
    const rows = next.all(after, BACKFILL_BATCH);
    for (const row of rows) setKey.run(ipBanKeyOfData(JSON.parse(row.data)), row.rowid);
    if (rows.length < BACKFILL_BATCH) return;
    after = rows.at(-1)!.rowid;
  }
}

/**
 * Schema version 6: an index made for each hot statement (store/statements.ts), so none walks a
 * network's punishments. Indexes the new ones make redundant are dropped: a two-column index the
 * planner could pick instead (status, target) is what made the login check walk every active row.
 */
export const NETWORK_SIZE_INDEXES: SchemaMigration = {
  version: 6,
  name: 'indexes for a network of 1,000,000 punishments: IP bans by prefix key, active punishments of a player',
  up(db) {
    db.exec('ALTER TABLE service_punishments ADD COLUMN ip_ban_key TEXT');
    backfillIpBanKeys(db);
    db.exec(`
      DROP INDEX service_punishments_ip_address;
      CREATE INDEX service_punishments_ip_ban ON service_punishments (network_id, ip_ban_key)
        WHERE ip_ban_key IS NOT NULL;
      DROP INDEX service_punishments_target;
      CREATE INDEX service_punishments_target_status ON service_punishments (network_id, target_uuid, status, created_at);
      DROP INDEX service_punishments_status;
      CREATE INDEX service_punishments_status_created ON service_punishments (network_id, status, created_at);
      DROP INDEX service_notifications_pending;
      CREATE INDEX service_notifications_pending_of_player ON service_notifications (network_id, player_uuid, created_at)
        WHERE acknowledged_at IS NULL;
      CREATE INDEX service_players_name ON service_players (network_id, name COLLATE NOCASE, last_login_at);
      DROP INDEX service_player_ips_player;
      CREATE INDEX service_player_ips_of_player ON service_player_ips (network_id, uuid, last_seen_at);
      CREATE INDEX service_evidence_punishment ON service_evidence (network_id, punishment_id);
      CREATE INDEX service_migration_uploads_network ON service_migration_uploads (network_id, created_at);
      CREATE INDEX service_migration_reports_network ON service_migration_reports (network_id);
    `);
  },
};
