import type { Db } from '../../db/open-db.js';

/** Players a network has seen, by lower-case UUID. */
export class PlayerStore {
  private readonly nameOf;
  private readonly upsert;

  constructor(db: Db) {
    this.nameOf = db.prepare<[number, string], { name: string }>(
      'SELECT name FROM service_players WHERE network_id = ? AND uuid = ?',
    );
    this.upsert = db.prepare<{ networkId: number; uuid: string; name: string }>(
      `INSERT INTO service_players (network_id, uuid, name) VALUES (@networkId, @uuid, @name)
       ON CONFLICT (network_id, uuid) DO UPDATE SET name = excluded.name WHERE name <> excluded.name`,
    );
  }

  findName(networkId: number, uuid: string): string | undefined {
    return this.nameOf.get(networkId, uuid.toLowerCase())?.name;
  }

  /** Registers the player or renames them; unchanged rows are not rewritten. */
  save(networkId: number, uuid: string, name: string): void {
    this.upsert.run({ networkId, uuid: uuid.toLowerCase(), name });
  }
}
