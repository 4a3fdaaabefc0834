import type { Db } from '../../src/db/open-db.js';
import { applySchemaMigrations } from '../../src/db/schema-migrations.js';
import { parseIpRange } from '../../src/ip/ip-range.js';
import { ActiveIndex, type EnforcedAs, type EnforcedKind } from './active-index.js';
import { type CachedPunishment, expiresAt, remainingMs } from './cached-punishment.js';
import { IpIndex } from './ip-index.js';
import { LocalPardons } from './local-creations.js';
import { PlayerStore } from './player-store.js';
import { type IndexFields, PunishmentStore } from './punishment-store.js';
import { CACHE_COMPONENT, CACHE_SCHEMA_MIGRATIONS } from './schema-migrations.js';

/** A running ban or mute found for a player, with its row (needed for the message anyway). */
export interface IndexEntry {
  readonly id: string;
  readonly expiresAt: number;
  readonly punishment: CachedPunishment;
}

/**
 * The local cache: SQLite rows (the truth, surviving restarts) and the in-memory indexes of
 * enforced bans and mutes by player, and of IP bans by address (what decisions read). Write rows with {@link save} inside the
 * caller's transaction, then {@link reindex} them once it has committed, so a rolled-back
 * transaction never leaves the index ahead of the table.
 */
export class PunishmentCache {
  readonly store: PunishmentStore;
  readonly players: PlayerStore;
  readonly localPardons: LocalPardons;
  readonly #index = new ActiveIndex();
  readonly #ipIndex = new IpIndex();
  #enforcedAs: EnforcedAs;

  /** @param enforcedAs which index holds a punishment while enforced: the policy of config.yml. */
  constructor(
    readonly db: Db,
    enforcedAs: EnforcedAs,
  ) {
    applySchemaMigrations(db, CACHE_COMPONENT, CACHE_SCHEMA_MIGRATIONS);
    this.store = new PunishmentStore(db);
    this.players = new PlayerStore(db);
    this.localPardons = new LocalPardons(db);
    this.#enforcedAs = enforcedAs;
  }

  /** Which index holds this punishment while it is enforced, under the current policy. */
  enforcedAs(punishment: Pick<IndexFields, 'typeOrdinal' | 'status'>): EnforcedKind | undefined {
    return this.#enforcedAs(punishment);
  }

  /** Rebuilds the index from SQLite (at start, and after a reload changed the policy). */
  load(enforcedAs: EnforcedAs = this.#enforcedAs): number {
    this.#enforcedAs = enforcedAs;
    this.#index.clear();
    this.#ipIndex.clear();
    this.store.forEachIndexFields((fields) => {
      const kind = this.#enforcedAs(fields);
      if (!kind) return;
      this.#index.extend(kind, fields.targetUuid, expiresAt(fields));
      const range = kind === 'ban' && fields.ipAddress !== undefined ? parseIpRange(fields.ipAddress) : undefined;
      if (range) this.#ipIndex.extend(range, expiresAt(fields));
    });
    return this.#index.size;
  }

  get(id: string): CachedPunishment | undefined {
    return this.store.get(id);
  }

  /** Writes the row (call inside a transaction, then {@link reindex}). */
  save(punishment: CachedPunishment, now: number): void {
    this.store.save(punishment, now);
  }

  /**
   * Brings the indexes in step with a committed row: the target's bans and mutes are read again,
   * and the IP bans of its address.
   */
  reindex(punishment: Pick<CachedPunishment, 'targetUuid' | 'ipAddress'>): void {
    if (punishment.ipAddress !== undefined) this.#reindexAddress(punishment.ipAddress);
    const until: Record<EnforcedKind, number | undefined> = { ban: undefined, mute: undefined };
    for (const row of this.store.forTarget(punishment.targetUuid)) {
      const kind = this.#enforcedAs(row);
      if (kind) until[kind] = Math.max(until[kind] ?? Number.NEGATIVE_INFINITY, expiresAt(row));
    }
    this.#index.replace('ban', punishment.targetUuid, until.ban);
    this.#index.replace('mute', punishment.targetUuid, until.mute);
  }

  /**
   * The IP ban running at `now` for an address (the most specific address or range holding it).
   * Addresses with none are answered from memory alone.
   */
  activeIpBan(ip: string, now: number): IndexEntry | undefined {
    const banned = this.#ipIndex.match(ip, now);
    if (banned === undefined) return undefined;
    return this.#endingLast(this.store.forAddress(banned), 'ban', now);
  }

  /** Addresses and ranges with an enforced IP ban. */
  get indexedAddressCount(): number {
    return this.#ipIndex.size;
  }

  /** The player's ban running at `now`. Players with none are answered from memory alone. */
  activeBan(uuid: string, now: number): IndexEntry | undefined {
    return this.#index.isBanned(uuid, now) ? this.#running('ban', uuid, now) : undefined;
  }

  activeMute(uuid: string, now: number): IndexEntry | undefined {
    return this.#index.isMuted(uuid, now) ? this.#running('mute', uuid, now) : undefined;
  }

  /** Every running ban (the latest-ending row of each banned player), newest first. */
  activeBans(now: number): IndexEntry[] {
    const entries: IndexEntry[] = [];
    for (const uuid of this.#index.running('ban', now)) {
      const entry = this.#running('ban', uuid, now);
      if (entry) entries.push(entry);
    }
    return entries.sort((a, b) => b.punishment.createdAt.localeCompare(a.punishment.createdAt));
  }

  /** Every punishment of a player this server has stored, newest first. */
  history(uuid: string): CachedPunishment[] {
    return this.store.forTarget(uuid).reverse();
  }

  /** Players with an enforced ban plus players with an enforced mute. */
  get indexedCount(): number {
    return this.#index.size;
  }

  count(): number {
    return this.store.count();
  }

  #running(kind: EnforcedKind, uuid: string, now: number): IndexEntry | undefined {
    return this.#endingLast(this.store.forTarget(uuid), kind, now);
  }

  /**
   * Of the rows, the punishment of `kind` running at `now` that ends last (a permanent one before
   * any other; one not started yet counts its whole duration from now), the newest on a tie: what
   * the player is told and staff are shown, since it is the one that decides when they are free.
   */
  #endingLast(rows: CachedPunishment[], kind: EnforcedKind, now: number): IndexEntry | undefined {
    let found: { entry: IndexEntry; leftMs: number } | undefined;
    for (const row of rows) {
      if (this.#enforcedAs(row) !== kind) continue;
      const end = expiresAt(row);
      if (now >= end) continue;
      const leftMs = remainingMs(row, now);
      // Rows come oldest first, so `>=` keeps the newest of equals.
      if (!found || leftMs >= found.leftMs) found = { entry: { id: row.id, expiresAt: end, punishment: row }, leftMs };
    }
    return found?.entry;
  }

  #reindexAddress(ipAddress: string): void {
    const range = parseIpRange(ipAddress);
    if (!range) return;
    let until: number | undefined;
    for (const row of this.store.forAddress(ipAddress)) {
      if (this.#enforcedAs(row) === 'ban') until = Math.max(until ?? Number.NEGATIVE_INFINITY, expiresAt(row));
    }
    this.#ipIndex.replace(range, until);
  }
}
