import { join } from 'node:path';
import { createModerationClient } from '../src/api/client.js';
import { EXTENSION_NAMES } from '../src/api/endpoints.js';
import { ExtensionSupport } from '../src/api/extension-support.js';
import type { ModerationApi } from '../src/api/moderation-api.js';
import { RateLimitGate } from '../src/api/rate-limit-gate.js';
import { type Db, openDb } from '../src/db/open-db.js';
import { startWalCheckpointer } from '../src/db/wal-checkpointer.js';
import { createOutbox } from '../src/outbox/index.js';
import type { Outbox } from '../src/outbox/types.js';
import { randomId } from '../src/ports/ids.js';
import { systemRandom } from '../src/ports/random.js';
import { systemTimers } from '../src/ports/timers.js';
import type { PluginContext } from '../src/runtime/plugin-api.js';
import { PunishmentCache } from './cache/punishment-cache.js';
import { cachedPunishmentTypes, playerDirectory } from './command-deps.js';
import type { CommandDeps } from './commands/deps.js';
import { registerCommands } from './commands/index.js';
import { readEmbeddedService } from './config/embedded-service.js';
import { readReloadedSettings } from './config/reload-settings.js';
import type { BailiffConfig } from './config/schema.js';
import { describeSource, resolveServiceConnection } from './config/service-connection.js';
import { sqliteExtensionStore } from './connection/extension-store.js';
import { logKeyRejections } from './connection/key-rejection-log.js';
import { onChat, onCommand } from './enforcement/chat-guard.js';
import type { EnforcementContext } from './enforcement/enforcement-context.js';
import { InFlightCreations } from './enforcement/in-flight-creations.js';
import { onJoined } from './enforcement/join-notices.js';
import { checkAtLogin, type LoginCheckDeps, onJoinedAfterCheck } from './enforcement/login-check.js';
import { LoginCheckSupport } from './enforcement/login-check-support.js';
import { PendingNotices } from './enforcement/pending-notices.js';
import { createPolicy } from './enforcement/policy.js';
import { onPreLogin } from './enforcement/pre-login.js';
import { enableEvasion } from './evasion/evasion.js';
import { createIdentify } from './identity/identify.js';
import { BUNDLED_MESSAGES, loadBundledMessages } from './messages/load.js';
import { createMessages, type Messages } from './messages/messages.js';
import { messagesSchema } from './messages/schema.js';
import { createModeration } from './moderation.js';
import { adoptDelivered } from './sync/adopt-delivered.js';
import { applyPunishment } from './sync/apply-punishment.js';
import { liftMissingFromSnapshot } from './sync/lift-missing.js';
import { sqliteStreamPositionStore } from './sync/stream-position.js';
import { createSync, type Sync } from './sync/sync-service.js';

/** The running plugin, as onEnable leaves it. */
export interface BailiffInstance {
  readonly db: Db;
  readonly cache: PunishmentCache;
  readonly outbox: Outbox;
  readonly client: ModerationApi;
  readonly sync: Sync;
  disable(): Promise<void>;
}

export const DATABASE_FILE = 'bailiff.db';
/** Under the data folder: files of in-game migrations while they upload. */
export const MIGRATIONS_FOLDER = 'migrations';

/** Opens the database, client, outbox, cache and sync; hooks the events; registers the commands. */
export function enableBailiff(context: PluginContext<BailiffConfig>): BailiffInstance {
  const { logger, clock } = context;
  let config = context.config.get();
  const connection = resolveServiceConnection({
    env: process.env,
    config: config.api,
    embedded: () => readEmbeddedService(context.dataFolder),
  });
  const keySource = describeSource(connection.keyFrom, 'key');
  const db = openDb(join(context.dataFolder, DATABASE_FILE));
  // One gate and one record of extensions for every caller of this service and key.
  const gate = new RateLimitGate({ requestsPerMinute: config.api.requestsPerMinute });
  logKeyRejections(gate, logger, keySource);
  const extensions = new ExtensionSupport({
    reprobeAfterMs: config.enforcement.loginCheck.reprobeAfterMs ?? config.api.reprobeAfterMs,
    store: sqliteExtensionStore(db),
  });
  const client = createModerationClient({
    baseUrl: connection.baseUrl,
    apiKey: connection.apiKey,
    platform: connection.platform,
    timeoutMs: config.api.timeoutMs,
    clock,
    gate,
    extensions,
  });
  const messagesFile = context.loadConfigFile({
    file: 'messages.yml',
    defaults: BUNDLED_MESSAGES,
    schema: messagesSchema,
  });
  const bundledMessages = loadBundledMessages(context.pluginFolder);
  let messages: Messages = createMessages(messagesFile.get(), bundledMessages);
  let blockedCommands: ReadonlySet<string> = new Set(config.mute.blockedCommands);

  const checkpointer = startWalCheckpointer(db, { logger });
  const cache = new PunishmentCache(db, createPolicy(config.enforcement));
  const loaded = cache.load();
  const outbox = createOutbox({ db, client, clock, logger, settings: config.outbox });

  const enforcement: EnforcementContext = {
    db,
    cache,
    outbox,
    players: context.players,
    messages: () => messages,
    appealUrl: () => config.appealUrl,
    clock,
    logger,
  };

  outbox.events.on('outbox:sent', (delivered) => {
    try {
      adoptDelivered(enforcement, delivered);
    } catch (error) {
      // Sync adopts it by its content when the service's copy arrives.
      logger.error('could not adopt a delivered creation', {
        error: error instanceof Error ? error.message : String(error),
      });
    }
  });
  const loginCheck: LoginCheckDeps = {
    context: enforcement,
    client,
    settings: () => config.enforcement.loginCheck,
    support: new LoginCheckSupport(() => config.enforcement.loginCheck, extensions),
    notices: new PendingNotices(enforcement),
    apply: (punishment) => applyPunishment(enforcement, punishment),
    timers: systemTimers,
  };
  const inFlight = new InFlightCreations();
  const audience = { online: () => context.players.online(), console: context.console };
  const moderation = createModeration({ enforcement, audience, permissions: context.permissions, inFlight });

  const streamPosition = sqliteStreamPositionStore(db, () => clock.now());
  // An empty cache has nothing a resume would build on: the first connection takes a snapshot.
  if (cache.count() === 0) streamPosition.clear();
  const newSync = () =>
    createSync({
      client,
      scheduler: context.scheduler,
      sync: config.sync,
      apply: (punishment) => {
        const outcome = applyPunishment(enforcement, punishment);
        moderation.announceSynced(outcome, punishment);
        return outcome;
      },
      liftMissing: (activeIds, storedBefore) => liftMissingFromSnapshot(enforcement, activeIds, storedBefore),
      clock,
      timers: systemTimers,
      random: systemRandom,
      logger,
      backfillOnStart: cache.count() === 0,
      streamPosition,
    });
  let sync = newSync();

  // The cache decides first (lowest runs first); the login check asks only about players it does not ban.
  context.events.on('player:prelogin', (event) => onPreLogin(enforcement, event), { priority: 'lowest' });
  context.events.on('player:prelogin', (event) => checkAtLogin(loginCheck, event), { ignoreCancelled: true });
  const evasion = enableEvasion({
    db,
    cache,
    client,
    enforcement,
    players: context.players,
    permissions: context.permissions,
    events: context.events,
    scheduler: context.scheduler,
    audience,
    settings: () => config.evasion,
    clock,
    logger,
  });
  context.events.on('player:join', ({ player }) => {
    try {
      onJoined(enforcement, player, !extensions.isMissing('registerPlayer', clock.now()));
    } catch (error) {
      logger.error('join bookkeeping failed', { error: error instanceof Error ? error.message : String(error) });
    }
  });
  context.events.on('player:join', ({ player }) => onJoinedAfterCheck(loginCheck, player), { priority: 'high' });
  context.events.on('player:chat', (event) => onChat(enforcement, event), { ignoreCancelled: true });
  context.events.on('player:command', (event) => onCommand(enforcement, () => blockedCommands, event), {
    ignoreCancelled: true,
  });

  const players = playerDirectory(context.players, cache.players);
  const deps: CommandDeps = {
    client,
    outbox,
    messages: { render: (key, placeholders) => messages.render(key, placeholders) },
    players,
    identify: createIdentify({
      server: context.server,
      players,
      client,
      profileLookupUrl: () => config.players.profileLookupUrl,
      fetch: globalThis.fetch,
      clock,
      timers: systemTimers,
      logger,
    }),
    punishmentTypes: cachedPunishmentTypes(client, clock),
    applyCreated: moderation.applyCreated,
    liftLocally: moderation.liftLocally,
    isExempt: moderation.isExempt,
    isOnline: moderation.isOnline,
    inFlight,
    records: moderation.records,
    evasion: evasion.lookups,
    status: () => {
      const stats = outbox.stats();
      const now = clock.now();
      const closure = gate.closure(now);
      return {
        serviceReachable: sync.status.serviceReachable,
        ...(closure ? { held: { reason: closure.reason, untilMs: closure.untilMs, endpoint: closure.endpoint } } : {}),
        keyRejected: gate.isKeyRejected,
        keySource,
        extensions: Object.fromEntries(EXTENSION_NAMES.map((name) => [name, extensions.state(name)])),
        lastSyncAt: sync.status.lastSyncAt,
        streamState: sync.status.streamState,
        cachedPunishments: cache.count(),
        outboxPending: stats.pending + stats.inFlight,
        outboxDead: stats.dead,
        loginCheck: loginCheck.support.state(now),
        saturation: sync.status.saturation,
        pollIntervalMs: config.sync.pollIntervalMs,
        catchUpPollIntervalMs: config.sync.minPollIntervalMs,
        evasion: evasion.status(),
      };
    },
    syncNow: () => sync.syncNow(),
    reload: () => {
      const next = readReloadedSettings({ config: context.config, messages: messagesFile }, config);
      config = next.config;
      messages = createMessages(next.messages, bundledMessages);
      blockedCommands = new Set(next.config.mute.blockedCommands);
      cache.load(createPolicy(next.config.enforcement));
      sync.stop();
      sync = newSync();
      sync.start();
      logger.info('config.yml and messages.yml reloaded', { restartRequired: next.restartRequired });
      return { restartRequired: next.restartRequired };
    },
    serverFolder: join(context.dataFolder, '..', '..'),
    migrationsFolder: join(context.dataFolder, MIGRATIONS_FOLDER),
    clock,
    ids: randomId,
    logger,
  };
  registerCommands(context as PluginContext<unknown>, deps);

  outbox.start();
  sync.start();
  logger.info('Bailiff enabled', {
    service: connection.baseUrl,
    source: describeSource(connection.urlFrom, 'url'),
    cachedPunishments: cache.count(),
    enforced: loaded,
    stream: config.sync.stream,
  });

  return {
    db,
    cache,
    outbox,
    client,
    get sync() {
      return sync;
    },
    async disable() {
      sync.stop();
      await outbox.stop();
      await checkpointer.stop();
      db.close();
    },
  };
}
