import type { Player } from '../../src/runtime/plugin-api.js';
import type { EnforcedKind } from '../cache/active-index.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';

/**
 * One punishment arriving from the service (or created here) and newly enforced, not yet
 * acknowledged: what its kind may do about it. `next` is the row about to be written; the
 * kind changes its local state, queues outbox writes (committed with the row) and chooses
 * the effect on the online target (run after the commit).
 */
export interface ArrivalStep {
  readonly context: EnforcementContext;
  readonly next: CachedPunishment;
  /** The service says it was already carried out (here before a restart, or on another server). */
  readonly startedAtService: boolean;
  readonly target: Player | undefined;
  readonly now: number;
  /** A messages.yml key rendered for this punishment. */
  text(key: string): string;
  /**
   * Carries it out on the online target (or on `players`, e.g. everyone on a banned address):
   * started, acknowledged, notified, both acks queued.
   */
  enforce(effect: (player: Player) => void, players?: readonly Player[]): void;
  /** Shows the target a notice (notified, notice ack queued) without acknowledging enforcement. */
  notify(line: string): void;
  /** An outbox write committed with the row. */
  queue(write: () => void): void;
}

/** Everything a punishment kind does on this server; sync and enforcement only dispatch here. */
export interface Kind {
  readonly action: PunishmentAction;
  /** The in-memory index that holds it while enforced (join and chat decisions read it). */
  readonly indexedAs: EnforcedKind | undefined;
  /** messages.yml keys: the staff broadcast line, and the notice a player sees (if any). */
  readonly messages: { readonly broadcast: string; readonly notice?: string };
  /** Newly enforced and unacknowledged (see {@link ArrivalStep}). */
  arrived(step: ArrivalStep): void;
  /**
   * At join, for an enforced punishment whose notice the player has not seen: records what
   * has to be recorded and returns the line to show, or undefined.
   */
  atJoin(context: EnforcementContext, punishment: CachedPunishment, now: number): string | undefined;
  /** It was enforced and no longer is (pardoned, expired, gone from the snapshot). */
  lifted(context: EnforcementContext, punishment: CachedPunishment, now: number): void;
}
