import Database from 'better-sqlite3';

/** Inserts `count` active bans into a network of a service's database file, in one transaction. */
export function insertBans(dbPath: string, network: string, count: number, dataBytes = 0): void {
  const db = new Database(dbPath);
  try {
    const { id: networkId } = db.prepare('SELECT id FROM service_networks WHERE name = ?').get(network) as {
      id: number;
    };
    const insert = db.prepare(
      `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
         duration, status, data, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'bulk', 2, 'bulk ban', 0, 'active', ?, ?, ?)`,
    );
    const data = dataBytes > 0 ? JSON.stringify({ padding: 'x'.repeat(dataBytes) }) : null;
    const at = Date.parse('2026-01-01T00:00:00.000Z');
    db.transaction(() => {
      for (let n = 0; n < count; n += 1) {
        const uuid = `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
        insert.run(networkId, `bulk-${n}`, uuid, `bulk${n}`, data, at + n, at + n);
      }
    })();
  } finally {
    db.close();
  }
}
