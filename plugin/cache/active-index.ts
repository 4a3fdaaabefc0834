import { type CachedPunishment, expiresAt } from './cached-punishment.js';

/**
 * An enforced ban or mute with its end precomputed, so a decision is one comparison. Only the id
 * is kept: the full row is read from SQLite when a message must be shown (keeps 100,000 entries small).
 */
export interface IndexEntry {
  readonly id: string;
  readonly expiresAt: number;
}

type Kind = 'ban' | 'mute';
type Slot = IndexEntry | IndexEntry[];

/**
 * Active bans and mutes by target UUID (lower case), in memory. Join and chat decisions read
 * only this. A player nearly always has at most one entry of a kind, so a slot holds one entry
 * and becomes an array only for the rare second one.
 */
export class ActiveIndex {
  readonly #bans = new Map<string, Slot>();
  readonly #mutes = new Map<string, Slot>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds or replaces the punishment's entry. */
  put(kind: Kind, punishment: Pick<CachedPunishment, 'id' | 'targetUuid' | 'durationMs' | 'startedAt'>): void {
    this.remove(punishment);
    const map = kind === 'ban' ? this.#bans : this.#mutes;
    const entry: IndexEntry = { id: punishment.id, expiresAt: expiresAt(punishment) };
    const slot = map.get(punishment.targetUuid);
    if (slot === undefined) map.set(punishment.targetUuid, entry);
    else if (Array.isArray(slot)) slot.push(entry);
    else map.set(punishment.targetUuid, [slot, entry]);
    this.#size += 1;
  }

  remove(punishment: Pick<CachedPunishment, 'id' | 'targetUuid'>): void {
    for (const map of [this.#bans, this.#mutes]) {
      const slot = map.get(punishment.targetUuid);
      if (slot === undefined) continue;
      if (!Array.isArray(slot)) {
        if (slot.id !== punishment.id) continue;
        map.delete(punishment.targetUuid);
        this.#size -= 1;
        return;
      }
      const at = slot.findIndex((entry) => entry.id === punishment.id);
      if (at === -1) continue;
      slot.splice(at, 1);
      if (slot.length === 1) map.set(punishment.targetUuid, slot[0]!);
      this.#size -= 1;
      return;
    }
  }

  /** The first ban of `uuid` (lower case) still running at `now`. */
  activeBan(uuid: string, now: number): IndexEntry | undefined {
    return firstRunning(this.#bans.get(uuid), now);
  }

  activeMute(uuid: string, now: number): IndexEntry | undefined {
    return firstRunning(this.#mutes.get(uuid), now);
  }

  clear(): void {
    this.#bans.clear();
    this.#mutes.clear();
    this.#size = 0;
  }
}

function firstRunning(slot: Slot | undefined, now: number): IndexEntry | undefined {
  if (slot === undefined) return undefined;
  if (!Array.isArray(slot)) return now < slot.expiresAt ? slot : undefined;
  for (const entry of slot) if (now < entry.expiresAt) return entry;
  return undefined;
}
