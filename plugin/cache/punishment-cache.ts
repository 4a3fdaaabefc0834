import { migrate } from '../../src/db/migrate.js';
import type { Db } from '../../src/db/open-db.js';
import type { EnforcementPolicy } from '../enforcement/policy.js';
import { ActiveIndex, type IndexEntry } from './active-index.js';
import type { CachedPunishment } from './cached-punishment.js';
import { CACHE_COMPONENT, CACHE_MIGRATIONS } from './migrations.js';
import { PlayerStore } from './player-store.js';
import { type IndexFields, PunishmentStore } from './punishment-store.js';

/**
 * The local cache: SQLite rows (the truth, surviving restarts) and the in-memory index of
 * enforced bans and mutes (what decisions read). Write rows with {@link save} inside the
 * caller's transaction, then {@link reindex} them once it has committed, so a rolled-back
 * transaction never leaves the index ahead of the table.
 */
export class PunishmentCache {
  readonly store: PunishmentStore;
  readonly players: PlayerStore;
  readonly #index = new ActiveIndex();
  #policy: EnforcementPolicy;

  constructor(
    readonly db: Db,
    policy: EnforcementPolicy,
  ) {
    migrate(db, CACHE_COMPONENT, CACHE_MIGRATIONS);
    this.store = new PunishmentStore(db);
    this.players = new PlayerStore(db);
    this.#policy = policy;
  }

  get policy(): EnforcementPolicy {
    return this.#policy;
  }

  /** Rebuilds the index from SQLite (at start, and after a reload changed the policy). */
  load(policy: EnforcementPolicy = this.#policy): number {
    this.#policy = policy;
    this.#index.clear();
    this.store.forEachIndexFields((fields) => this.#indexOne(fields));
    return this.#index.size;
  }

  get(id: string): CachedPunishment | undefined {
    return this.store.get(id);
  }

  /** Writes the row (call inside a transaction, then {@link reindex}). */
  save(punishment: CachedPunishment, now: number): void {
    this.store.save(punishment, now);
  }

  /** Brings the index in step with a committed row. */
  reindex(punishment: CachedPunishment): void {
    this.#indexOne(punishment);
  }

  activeBan(uuid: string, now: number): IndexEntry | undefined {
    return this.#index.activeBan(uuid, now);
  }

  activeMute(uuid: string, now: number): IndexEntry | undefined {
    return this.#index.activeMute(uuid, now);
  }

  /** Enforced bans and mutes in the index. */
  get indexedCount(): number {
    return this.#index.size;
  }

  count(): number {
    return this.store.count();
  }

  #indexOne(punishment: IndexFields): void {
    const action = this.#policy.actionOf(punishment.typeOrdinal);
    if ((action === 'ban' || action === 'mute') && this.#policy.isEnforced(punishment.status)) {
      this.#index.put(action, punishment);
    } else {
      this.#index.remove(punishment);
    }
  }
}
