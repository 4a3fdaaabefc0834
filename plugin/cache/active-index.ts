import { RunningUntil } from './running-until.js';

export type EnforcedKind = 'ban' | 'mute';

/** Which index holds a punishment while it is enforced; undefined when none does (config.yml decides). */
export type EnforcedAs = (punishment: { typeOrdinal: number; status: string }) => EnforcedKind | undefined;

/**
 * Enforced bans and mutes by target UUID (lower case): the latest end of each kind. It answers "is
 * anything running?"; which punishment it is comes from SQLite, and only for the few players who
 * are punished.
 */
export class ActiveIndex {
  readonly #bans = new RunningUntil<string>();
  readonly #mutes = new RunningUntil<string>();

  /** Players with a ban plus players with a mute. */
  get size(): number {
    return this.#bans.size + this.#mutes.size;
  }

  isBanned(uuid: string, now: number): boolean {
    return this.#bans.isRunning(uuid, now);
  }

  isMuted(uuid: string, now: number): boolean {
    return this.#mutes.isRunning(uuid, now);
  }

  /** Players with a running ban (or mute) at `now`. */
  running(kind: EnforcedKind, now: number): IterableIterator<string> {
    return this.#table(kind).running(now);
  }

  /** Keeps the later of the stored end and `untilMs` (a player may have several of a kind). */
  extend(kind: EnforcedKind, uuid: string, untilMs: number): void {
    const table = this.#table(kind);
    const current = table.untilMs(uuid);
    if (current === undefined || untilMs > current) table.set(uuid, untilMs);
  }

  /** Replaces what is known of the player's bans or mutes; undefined: none is enforced. */
  replace(kind: EnforcedKind, uuid: string, untilMs: number | undefined): void {
    if (untilMs === undefined) this.#table(kind).delete(uuid);
    else this.#table(kind).set(uuid, untilMs);
  }

  clear(): void {
    this.#bans.clear();
    this.#mutes.clear();
  }

  #table(kind: EnforcedKind): RunningUntil<string> {
    return kind === 'ban' ? this.#bans : this.#mutes;
  }
}
