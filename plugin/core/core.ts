import { createModerationClient } from '../../src/api/client.js';
import { ExtensionSupport } from '../../src/api/extension-support.js';
import type { ModerationApi } from '../../src/api/moderation-api.js';
import { RateLimitGate } from '../../src/api/rate-limit-gate.js';
import { type Db, openDb } from '../../src/db/open-db.js';
import { startWalCheckpointer, type WalCheckpointer } from '../../src/db/wal-checkpointer.js';
import { createOutbox } from '../../src/outbox/index.js';
import type { Outbox } from '../../src/outbox/types.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import { systemTimers, type Timers } from '../../src/ports/timers.js';
import type { CommandSender, Permissions, Players } from '../../src/runtime/plugin-api.js';
import { AppealCodes } from '../appeals/appeal-codes.js';
import { AppealScreens } from '../appeals/appeal-screens.js';
import { PunishmentCache } from '../cache/punishment-cache.js';
import type { BailiffConfig } from '../config/schema.js';
import { sqliteExtensionStore } from '../connection/extension-store.js';
import { logKeyRejections } from '../connection/key-rejection-log.js';
import { type CommandEffects, createCommandEffects } from '../enforcement/command-effects.js';
import type { EnforcementContext } from '../enforcement/enforcement-context.js';
import { InFlightCreations } from '../enforcement/in-flight-creations.js';
import type { StaffAudience } from '../enforcement/staff-broadcast.js';
import { FreezeBook } from '../freeze/freeze-book.js';
import { Freezes } from '../freeze/freezes.js';
import type { LocaleTables } from '../messages/catalogue.js';
import type { MessageTable } from '../messages/schema.js';
import { RememberedLocales } from '../players/remembered-locales.js';
import { createReportEvents, type ReportEventBus } from './report-events.js';
import { type CoreSettings, createCoreSettings } from './settings.js';

export interface CoreOptions {
  /** config.yml as read at enable. */
  config: BailiffConfig;
  /** messages.yml as read at enable, and the bundled copy its missing keys fall back to. */
  messages: MessageTable;
  bundledMessages?: MessageTable;
  /** Bundled translations and the owner's messages.<tag>.yml files, by lower-case tag. @default none */
  bundledLocales?: LocaleTables;
  ownerLocales?: LocaleTables;
  /** The plugin's SQLite file; `:memory:` in tests. */
  databaseFile: string;
  /** Where the service is and the key (from `resolveServiceConnection`). */
  connection: { baseUrl: string; apiKey: string; platform: string };
  /** Where the key came from, in the words of a log line (never the key). */
  keySource: string;
  /**
   * Replaces the HTTP client built from `connection` (tests); it gets the shared gate and record
   * of extensions. @default createModerationClient
   */
  createClient?: (shared: { gate: RateLimitGate; extensions: ExtensionSupport }) => ModerationApi;
  players: Players;
  permissions: Pick<Permissions, 'has'>;
  console: CommandSender;
  clock: Clock;
  logger: Logger;
  /** Timers of waits on the join path (a ban screen's appeal code). @default systemTimers */
  timers?: Timers;
}

/**
 * What every feature shares: one database, one gate and record of extensions for every caller of
 * the service, one client, cache and outbox, and the enforcement context over them. Nothing
 * runs until {@link start}.
 */
export interface Core {
  readonly db: Db;
  readonly gate: RateLimitGate;
  readonly extensions: ExtensionSupport;
  readonly client: ModerationApi;
  readonly cache: PunishmentCache;
  readonly outbox: Outbox;
  readonly enforcement: EnforcementContext;
  /** What the staff commands (and sync's announcements) do to this server. */
  readonly effects: CommandEffects;
  /** Creations being sent now (sync leaves announcing them to the command). */
  readonly inFlight: InFlightCreations;
  /** Who hears staff broadcasts: the console and online players with `bailiff.notify`. */
  readonly audience: StaffAudience;
  /** config.yml, messages.yml and the policy, as the last reload left them. */
  readonly settings: CoreSettings;
  /** The language each player last used here (for a ban screen before a Java client says its own). */
  readonly locales: RememberedLocales;
  /** Reports created on this server (`reportCreated`), for the staff alert. */
  readonly reports: ReportEventBus;
  /** One-time appeal codes from the service, held for ban screens and `/appeal`. */
  readonly appealCodes: AppealCodes;
  /** Appeal codes on ban screens (the pre-login wait for a code not held yet). */
  readonly appealScreens: AppealScreens;
  /** Frozen players, held here and kept network-wide by the service where it can. */
  readonly freezes: Freezes;
  readonly keySource: string;
  /** Enforced punishments the cache indexed at start. */
  readonly enforcedAtStart: number;
  /** Starts the outbox and the WAL checkpointer. */
  start(): void;
  /** Stops the outbox and the checkpointer, then closes the database. */
  close(): Promise<void>;
}

export function createCore(options: CoreOptions): Core {
  const { clock, logger } = options;
  const db = openDb(options.databaseFile);
  const locales = new RememberedLocales(db);
  const settings = createCoreSettings(options.config, options.messages, options.bundledMessages, {
    bundled: options.bundledLocales,
    owner: options.ownerLocales,
    remembered: (uuid) => locales.lastOf(uuid),
  });
  const initial = settings.config();
  const gate = new RateLimitGate({
    requestsPerMinute: initial.api.requestsPerMinute,
    playerRequestsPerMinute: Math.max(
      1,
      Math.floor((initial.api.requestsPerMinute * initial.api.playerSharePercent) / 100),
    ),
  });
  logKeyRejections(gate, logger, options.keySource);
  const extensions = new ExtensionSupport({
    reprobeAfterMs: initial.enforcement.loginCheck.reprobeAfterMs ?? initial.api.reprobeAfterMs,
    store: sqliteExtensionStore(db),
  });
  const client =
    options.createClient?.({ gate, extensions }) ??
    createModerationClient({
      ...options.connection,
      timeoutMs: initial.api.timeoutMs,
      clock,
      gate,
      extensions,
    });
  const cache = new PunishmentCache(db, settings.policy().enforcedAs);
  const enforcedAtStart = cache.load();
  settings.onReplaced(() => cache.load(settings.policy().enforcedAs));
  const outbox = createOutbox({ db, client, clock, logger, settings: initial.outbox });
  const appealCodes = new AppealCodes({ client, extensions, clock });
  const appealScreens = new AppealScreens({
    codes: appealCodes,
    messages: settings.messages,
    waitMs: () => settings.config().appeals.codeWaitMs,
    clock,
    timers: options.timers ?? systemTimers,
    logger,
  });
  const enforcement: EnforcementContext = {
    db,
    cache,
    policy: settings.policy,
    outbox,
    players: options.players,
    messages: settings.messages,
    appealUrl: () => settings.config().appealUrl,
    clock,
    logger,
    appeals: appealScreens,
  };
  const audience: StaffAudience = { online: () => options.players.online(), console: options.console };
  const inFlight = new InFlightCreations();
  const effects = createCommandEffects({ enforcement, audience, permissions: options.permissions, inFlight });
  const freezes = new Freezes({
    book: new FreezeBook(db),
    client,
    players: options.players,
    messages: settings.messages,
    clock,
    logger,
  });
  let checkpointer: WalCheckpointer | undefined;

  return {
    db,
    gate,
    extensions,
    client,
    cache,
    outbox,
    enforcement,
    effects,
    inFlight,
    audience,
    settings,
    locales,
    reports: createReportEvents(),
    appealCodes,
    appealScreens,
    freezes,
    keySource: options.keySource,
    enforcedAtStart,
    start() {
      checkpointer ??= startWalCheckpointer(db, { logger });
      outbox.start();
    },
    async close() {
      await outbox.stop();
      await checkpointer?.stop();
      db.close();
    },
  };
}
