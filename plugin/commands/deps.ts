import type { ExtensionName } from '../../src/api/endpoints.js';
import type { GateReason } from '../../src/api/errors.js';
import type { ExtensionState } from '../../src/api/extension-support.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Punishment, PunishmentType } from '../../src/api/schemas.js';
import type { IpBanPrefixLimits } from '../../src/ip/ip-ban-breadth.js';
import type { Outbox } from '../../src/outbox/index.js';
import type { Clock } from '../../src/ports/clock.js';
import type { IdGenerator } from '../../src/ports/ids.js';
import type { Logger } from '../../src/ports/logger.js';
import type { CachedPunishment } from '../cache/cached-punishment.js';
import type { PunishmentAction } from '../config/ordinal-defaults.js';
import type { InFlightCreations } from '../enforcement/in-flight-creations.js';
import type { LoginCheckState } from '../enforcement/login-check-support.js';
import type { Identified } from '../identity/resolve-player.js';
import type { PlayerCalls } from '../players/player-calls.js';
import type { SaturationReport } from '../sync/saturation.js';

/**
 * Everything the staff and player commands need from the rest of the plugin. The plugin core
 * (plugin/bailiff-plugin.ts) builds one of these and passes it to `registerCommands`. Kept narrow so
 * the commands can be unit-tested with small fakes.
 */
export interface CommandDeps {
  /** The API client, used for reads (types, preview, tickets) and for direct writes. */
  client: ModerationApi;
  /** The durable outbox, started: creations go through it (`sendNow`); writes that fail with a transient error wait there. */
  outbox: CommandOutbox;
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
  /** Whether a player holds `bailiff.exempt` (asked by name and UUID: works for offline players). */
  isExempt(player: KnownPlayer): boolean;
  /** Cooldown and answer cache of the calls players trigger (/tickets, /ticket). */
  playerCalls: Pick<PlayerCalls, 'run'>;
  /** Creations being sent now (sync leaves announcing them to the command). */
  inFlight: InFlightCreations;
  /** What this server knows of punishments, from its cache (for /check, /history, /banlist, /unban). */
  records: PunishmentRecords;
  /** Addresses this server saw and linked accounts (for /ban-ip, /unban-ip, /alts). */
  evasion: EvasionLookups;
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

export interface ReloadOutcome {
  /** Settings (e.g. `api.key`) that changed in the file but take effect only at the next start. */
  restartRequired?: readonly string[];
}

export interface LiftRequest {
  punishmentId: string;
  issuerName: string;
  reason: string;
  silent: boolean;
}

export interface PunishmentRecords {
  activeBan(uuid: string, now: number): CachedPunishment | undefined;
  activeMute(uuid: string, now: number): CachedPunishment | undefined;
  /** Every punishment stored for the player, newest first. */
  history(uuid: string): CachedPunishment[];
  /** The player's enforced punishments of one kind still running at `now`, newest first. */
  running(uuid: string, action: PunishmentAction, now: number): CachedPunishment[];
  /** Every running ban, newest first. */
  activeBans(now: number): CachedPunishment[];
  /** Running IP bans of exactly this address or range (canonical), or targeting this player; newest first. */
  runningIpBans(of: { ipAddress?: string; targetUuid?: string }, now: number): CachedPunishment[];
  /** What a punishment does here (its kind). */
  actionOf(punishment: CachedPunishment): PunishmentAction;
  /** What an active punishment of this type does here (config.yml `enforcement.ordinalActions`). */
  actionOfType(typeOrdinal: number): PunishmentAction;
}

export interface EvasionLookups {
  /** The address (canonical) a player last joined this server from; undefined when none is known. */
  lastAddressOf(uuid: string): string | undefined;
  /** Accounts linked to a player: from the service when it offers the route, else from this server's record. */
  linkedAccounts(player: KnownPlayer, page: number, pageSize: number): Promise<AltsPage>;
  /** The shortest prefix an IP ban may have (config.yml `evasion.ipBanMinPrefixV4`/`V6`). @default /16 and /48 */
  ipBanPrefixLimits?(): IpBanPrefixLimits;
}

export interface AltAccount {
  uuid: string;
  name: string;
  /** Shared addresses, with when this account was last seen on each; most recent first. */
  sharedIps: ReadonlyArray<{ ip: string; lastSeenAt: number }>;
  banned: boolean;
  muted: boolean;
}

export interface AltsPage {
  /** Where the links come from: the service's linked accounts, or this server's record of addresses. */
  source: 'service' | 'local';
  /** Why the service was not asked or did not answer, when `source` is local. */
  fallback?: 'not-offered' | 'unreachable';
  accounts: AltAccount[];
  /** Linked accounts in all pages. */
  total: number;
}

export interface MessageRenderer {
  render(key: string, placeholders?: Record<string, string | number>): string;
}

export interface KnownPlayer {
  uuid: string;
  name: string;
}

export interface PlayerDirectory {
  /** By name (case-insensitive) or UUID: online players first, then players seen before. */
  resolve(nameOrUuid: string): KnownPlayer | undefined;
}

/**
 * The plugin's running outbox: the commands enqueue (synchronous, durable once it returns);
 * `/bailiff migrate` hands it to `runMigration`, which also listens to its events.
 */
export type CommandOutbox = Outbox;

export type StreamState = 'connected' | 'connecting' | 'disconnected' | 'disabled' | 'unsupported';

export interface StatusSnapshot {
  /** False after the last call to the service failed with a network error, timeout or 5xx. */
  serviceReachable: boolean;
  /** Set while the rate-limit gate holds every call: a 429's wait, or a rejected key. */
  held?: { reason: GateReason; untilMs: number; endpoint: string };
  /** The service rejected the API key and has not accepted it since. */
  keyRejected?: boolean;
  /** Where the API key came from (`api.key in config.yml`, `BAILIFF_API_KEY`, ...), never the key. */
  keySource?: string;
  /** What is known of each route beyond the published contract. */
  extensions?: Partial<Record<ExtensionName, ExtensionState>>;
  /** Epoch ms of the last successful sync; undefined before the first. */
  lastSyncAt: number | undefined;
  streamState: StreamState;
  /** Punishments in the local cache. */
  cachedPunishments: number;
  outboxPending: number;
  outboxDead: number;
  /** How the login check stands; absent when not reported. */
  loginCheck?: LoginCheckState;
  /** Set while `recent` answers full pages that may hide punishments. */
  saturation?: SaturationReport;
  /** The regular poll interval, and the faster one used while pages overflow. */
  pollIntervalMs?: number;
  catchUpPollIntervalMs?: number;
  /** This server's record of addresses and its IP bans; absent when not reported. */
  evasion?: { addresses: number; keepDays: number; ipBans: number };
}

export interface SyncNowResult {
  /** Punishments stored or changed by this sync. */
  applied: number;
}
