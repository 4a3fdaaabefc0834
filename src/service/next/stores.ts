import type { SqlContext } from '../db/prepared.js';
import { PunishmentStore } from './punishments.js';

/** What the stores need besides the database. */
export interface StoreOptions {}

/** Every store, on one database or one transaction. */
export function createStores(sql: SqlContext, _options: StoreOptions = {}) {
  return {
    punishments: new PunishmentStore(sql),
  };
}

export type Stores = ReturnType<typeof createStores>;
