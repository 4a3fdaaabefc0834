import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';
import { activePunishmentsOf } from '../../src/migration/as-punishments.js';
import type { MigrationPlayer } from '../../src/migration/types.js';
import { fromServicePunishment } from './cached-punishment.js';
import { PunishmentStore } from './punishment-store.js';
import { CACHE_COMPONENT, CACHE_SCHEMA_MIGRATIONS } from './schema-migrations.js';

/**
 * For `bailiff migrate` run beside a stopped (or running) server: stores each exported player's
 * active bans and mutes in the server's cache file, with the ids the service will import them
 * under, so the server enforces them from its next start without waiting for the service.
 * Rows already there are left alone (they carry this server's enforcement state).
 */
export function cacheSeeder(db: Db, now: () => number): (player: MigrationPlayer) => number {
  applySchemaMigrations(db, CACHE_COMPONENT, CACHE_SCHEMA_MIGRATIONS);
  const store = new PunishmentStore(db);
  return (player) =>
    db.transaction(() => {
      let stored = 0;
      for (const punishment of activePunishmentsOf(player)) {
        if (store.get(punishment.id)) continue;
        store.save(fromServicePunishment(punishment), now());
        stored += 1;
      }
      return stored;
    })();
}
