import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Punishment, PunishmentType } from '../../src/contract/schemas.js';
import type { Outbox } from '../../src/outbox/index.js';
import type { Clock } from '../../src/ports/clock.js';
import type { IdGenerator } from '../../src/ports/ids.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Player } from '../../src/runtime/plugin-api.js';
import type { PlayerAppeals } from '../appeals/player-appeals.js';
import type { ReloadOutcome } from '../config/reload-settings.js';
import type { CreatedReport } from '../core/report-events.js';
import type { LiftRequest, PunishmentRecords } from '../enforcement/command-effects.js';
import type { InFlightCreations } from '../enforcement/in-flight-creations.js';
import type { EvasionLookups } from '../evasion/evasion.js';
import type { Freezes } from '../freeze/freezes.js';
import type { KnownPlayer, PlayerDirectory } from '../identity/known-player.js';
import type { Identified } from '../identity/resolve-player.js';
import type { MessageRenderer } from '../messages/messages.js';
import type { PlayerCalls } from '../players/player-calls.js';
import type { PlayerReports } from '../players/player-reports.js';
import type { TextNotice } from '../reports/online-notices.js';
import type { StatusSnapshot } from '../status/status-snapshot.js';
import type { SyncNowResult } from '../sync/sync-service.js';

/**
 * Everything the staff and player commands need from the rest of the plugin. The commands feature
 * (plugin/features/commands.ts) builds one from the core and passes it to `registerCommands`. Kept
 * narrow so the commands can be unit-tested with small fakes.
 */
export interface CommandDeps {
  /** The API client, used for reads (types, preview, tickets) and for direct writes. */
  client: ModerationApi;
  /** The durable outbox, started: creations go through it (`sendNow`); writes that fail with a transient error wait there. */
  outbox: Outbox;
  /** Renders messages.yml keys (`commands.*`); `&` codes are kept, the sender renders them. */
  messages: MessageRenderer;
  /** Online players first, then the table of players the server has seen. */
  players: PlayerDirectory;
  /**
   * Who a player argument means, also a player who never joined this server (by UUID, the
   * service, the offline UUID or a profile lookup: plugin/identity/resolve-player.ts).
   */
  identify(input: string): Promise<Identified>;
  /** The punishment type catalogue (may be cached by the core; a failure is thrown as an ApiError). */
  punishmentTypes(): Promise<PunishmentType[]>;
  /**
   * Stores and applies a punishment the service has just created, at once (kicks or mutes an
   * online target) instead of waiting for the next sync. Same effect as a synced punishment
   * with that id, so the later sync of the same id changes nothing.
   */
  applyCreated(punishment: Punishment, silent?: boolean): void;
  /** Lifts a cached ban or mute here at once (status pardoned) and announces it unless silent. */
  liftLocally(request: LiftRequest): void;
  /** Whether the player is online now. */
  isOnline(player: KnownPlayer): boolean;
  /**
   * Shows a notice (a staff reply) to its player when online here and queues its acknowledgement,
   * once per notice id; the player told, or undefined (they see it at their next join).
   */
  offerNotice(notice: TextNotice): Player | undefined;
  /**
   * Tells the plugin a report (a ticket of type player or chat) was created at the service: holders
   * of `bailiff.reports.notify` here are alerted at once (`/report` and `/chatreport` call it).
   */
  reportCreated(report: CreatedReport): void;
  /** Whether a player holds `bailiff.exempt` (asked by name and UUID: works for offline players). */
  isExempt(player: KnownPlayer): boolean;
  /** Cooldown and answer cache of the calls players trigger (/tickets, /ticket). */
  playerCalls: Pick<PlayerCalls, 'run'>;
  /** Recent chat, cooldowns and delivery notices of player reports and ticket replies. */
  reports: PlayerReports;
  /** One-time appeal codes for `/appeal`, and each player's cooldown. */
  appeals: PlayerAppeals;
  /** Creations being sent now (sync leaves announcing them to the command). */
  inFlight: InFlightCreations;
  /** What this server knows of punishments, from its cache (for /check, /history, /banlist, /unban). */
  records: PunishmentRecords;
  /** Addresses this server saw and linked accounts (for /ban-ip, /unban-ip, /alts). */
  evasion: EvasionLookups;
  /** Frozen players: `/freeze`, `/unfreeze`, `/frozen`. */
  freezes: Pick<Freezes, 'freeze' | 'unfreeze' | 'list'>;
  /** A snapshot for `/bailiff status`. */
  status(): StatusSnapshot;
  /** Polls `recent` once now and applies what changed. */
  syncNow(): Promise<SyncNowResult>;
  /**
   * Re-reads config.yml and messages.yml; throws an Error with a message for the sender when
   * invalid (a ConfigError names the file, key, expected and received), changing nothing.
   */
  reload(): Promise<ReloadOutcome> | ReloadOutcome;
  /** The server folder (holds banned-players.json, plugins/Essentials/userdata) for `/bailiff migrate`. */
  serverFolder: string;
  /** Where `/bailiff migrate` writes its file while uploading it (`plugin-data/Bailiff/migrations/`). */
  migrationsFolder: string;
  clock: Clock;
  /** Idempotency keys of queued writes and names of migration runs. */
  ids: IdGenerator;
  logger: Logger;
}
