import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDb } from '../src/db/open-db.js';
import { applySchemaMigrations } from '../src/db/schema-migrations.js';
import { SERVICE_SCHEMA_MIGRATIONS } from '../src/service/db/schema.js';
import { NETWORK_AT_SCALE } from '../test/service/helpers/network-fixture.js';
import type { BenchResult } from './result.js';
import { networkFixtureCopy } from './support/network-fixture-file.js';

/** Turns the fixture back into a file of schema version 5: same rows, version 5's indexes. */
function downgradeToVersion5(path: string): void {
  const db = openDb(path);
  try {
    db.exec(`
      DROP INDEX service_punishments_ip_ban;
      DROP INDEX service_punishments_target_status;
      DROP INDEX service_punishments_status_created;
      DROP INDEX service_notifications_pending_of_player;
      DROP INDEX service_players_name;
      DROP INDEX service_player_ips_of_player;
      DROP INDEX service_evidence_punishment;
      DROP INDEX service_migration_uploads_network;
      DROP INDEX service_migration_reports_network;
      ALTER TABLE service_punishments DROP COLUMN ip_ban_key;
      CREATE INDEX service_punishments_target ON service_punishments (network_id, target_uuid);
      CREATE INDEX service_punishments_status ON service_punishments (network_id, status);
      CREATE INDEX service_notifications_pending ON service_notifications (network_id, player_uuid)
        WHERE acknowledged_at IS NULL;
      CREATE INDEX service_player_ips_player ON service_player_ips (network_id, uuid);
      CREATE INDEX service_punishments_ip_address ON service_punishments (network_id, json_extract(data, '$.ipAddress'))
        WHERE json_extract(data, '$.ipAddress') IS NOT NULL;
      DELETE FROM schema_migrations WHERE component = 'service' AND version = 6;
    `);
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** How long the first start of this version takes on a network's file of version 5 (schema version 6 alone). */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-upgrade-'));
  try {
    const fixture = await networkFixtureCopy(NETWORK_AT_SCALE, dir, Date.now());
    downgradeToVersion5(fixture.path);
    const db = openDb(fixture.path);
    try {
      const began = performance.now();
      const applied = applySchemaMigrations(db, 'service', SERVICE_SCHEMA_MIGRATIONS);
      const seconds = (performance.now() - began) / 1000;
      if (applied !== 1) throw new Error(`expected to apply schema version 6 alone, applied ${applied}`);
      const ipBans = db
        .prepare<[], { count: number }>(
          'SELECT count(*) AS count FROM service_punishments WHERE ip_ban_key IS NOT NULL',
        )
        .get()!.count;
      return [
        {
          name: 'schema 6 upgrade (1M stored)',
          unit: 's',
          value: seconds,
          notes: `keys for ${ipBans.toLocaleString('en')} stored IP bans, 9 indexes built, in one transaction; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`,
        },
      ];
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
