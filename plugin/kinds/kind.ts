import type { Db } from '../../src/db/open-db.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Player, Players } from '../../src/runtime/plugin-api.js';
import type { OutboxWriter } from '../acks/acknowledgements.js';
import type { AppealScreenLines } from '../appeals/appeal-screens.js';
import type { EnforcedKind } from '../cache/active-index.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import type { PunishmentCache } from '../cache/punishment-cache.js';
import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { OnlineAddresses } from '../evasion/online-addresses.js';
import type { Messages } from '../messages/messages.js';
import type { MessageReader } from '../messages/reader.js';

/**
 * One punishment arriving from the service (or created here) and newly enforced, not yet
 * acknowledged: what its kind may do about it. `next` is the row about to be written; the
 * kind changes its local state, queues outbox writes (committed with the row) and chooses
 * the effect on the online target (run after the commit).
 */
export interface ArrivalStep {
  readonly context: KindContext;
  readonly next: CachedPunishment;
  /** The service says it was already carried out (here before a restart, or on another server). */
  readonly startedAtService: boolean;
  readonly target: Player | undefined;
  readonly now: number;
  /** A messages.yml key rendered for this punishment. */
  text(key: string, reader?: MessageReader): string;
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
  atJoin(context: KindContext, punishment: CachedPunishment, now: number): string | undefined;
  /** It was enforced and no longer is (pardoned, expired, gone from the snapshot). */
  lifted(context: KindContext, punishment: CachedPunishment, now: number): void;
}

/** What a punishment kind may touch while it is carried out, noticed or lifted. */
export interface KindContext {
  db: Db;
  cache: PunishmentCache;
  outbox: OutboxWriter;
  /** Online players. */
  players: Pick<Players, 'byUuid'>;
  /** Current messages (they change on reload), in `reader`'s language; without one, the network's. */
  messages(reader?: MessageReader): Messages;
  /** Current `appealUrl` of config.yml. */
  appealUrl(): string;
  clock: Clock;
  logger: Logger;
  /** Online players by address, so a new IP ban reaches everyone on it; absent: its target only. */
  addresses?: Pick<OnlineAddresses, 'onlineIn'>;
  /** Whether a player is spared by IP bans (`bailiff.ipban.bypass`); absent: nobody is. */
  bypassesIpBans?: (player: { uuid: string; name: string }) => boolean;
  /** Appeal codes on ban screens; absent: the screens say nothing of appeal codes. */
  appeals?: AppealScreenLines;
}
