import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_IP_BAN_PREFIX_LIMITS } from '../ip/ip-ban-breadth.js';
import { systemClock } from '../ports/clock.js';
import { silentLogger } from '../ports/logger.js';
import { systemRandom } from '../ports/random.js';
import { systemTimers } from '../ports/timers.js';
import { ADDRESS_PRUNE_BATCH_SIZE, ADDRESS_PRUNE_INTERVAL_MS, AddressPruner } from './address-pruner.js';
import { buildApp } from './app.js';
import { parseTrustedProxies } from './connections/client-origin.js';
import { ConnectionGuard } from './connections/connection-guard.js';
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_CONNECTIONS_PER_ADDRESS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
} from './connections/connection-settings.js';
import { createContext } from './context.js';
import { DAY_MS, DEFAULT_LINK_EXPIRY_DAYS, DEFAULT_SHARED_IP_THRESHOLD } from './evasion/evasion-settings.js';
import { AuthFailureThrottle } from './http/auth-throttle.js';
import { KeyRateLimits } from './http/rate-limit.js';
import { ImportJobs } from './migration/import-job.js';
import {
  checkOptions,
  DEFAULT_ADDRESS_HISTORY_DAYS,
  DEFAULT_AUTH_FAILURES_PER_MINUTE,
  DEFAULT_HOST,
  DEFAULT_MAX_UPLOAD_MB,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_PLATFORM,
  DEFAULT_PORT,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_WEBHOOK_EXPIRY_CHECK_MS,
  DEFAULT_WEBHOOK_RETRY_BASE_MS,
  DEFAULT_WEBHOOK_RETRY_MAX_MS,
  DEFAULT_WEBHOOK_TIMEOUT_MS,
  DEFAULT_WRITE_RATE_LIMIT_PER_MINUTE,
  type RunningService,
  randomAdminToken,
  type ServiceOptions,
  shortRandomId,
} from './options.js';
import { DEFAULT_RULES } from './rules/catalogue.js';
import { applySeed } from './seed/apply-seed.js';
import { loadSeed, parseSeed } from './seed/load-seed.js';
import { refuseSeedDestinations } from './seed/seed-destinations.js';
import { InstanceSharing } from './several-instances.js';
import { createServiceStorage } from './store/create-storage.js';
import { PostgresStorage } from './store/postgres/postgres-storage.js';
import { SqliteStorage } from './store/sqlite-storage.js';
import { StreamServer } from './stream/stream-server.js';
import {
  DEFAULT_STREAM_CONNECTIONS_PER_KEY,
  DEFAULT_STREAM_MAX_FRAME_BYTES,
  DEFAULT_STREAM_RETAINED_CHANGES,
  DEFAULT_STREAM_STALL_TIMEOUT_MS,
  STREAM_HIGH_WATER_BYTES,
  STREAM_MAX_BUFFERED_BYTES,
  STREAM_PAGE_SIZE,
  STREAM_SNAPSHOT_REUSE_MS,
} from './stream/stream-settings.js';
import { warmUpLoginChecks } from './warm-up/login-warm-up.js';
import { type DestinationPolicy, systemResolver } from './webhooks/destination.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import { EXPIRY_BATCH_SIZE, EXPIRY_MAX_LATE_MS, ExpiryAnnouncer } from './webhooks/expiry-announcer.js';
import { guardedFetch } from './webhooks/guarded-fetch.js';

export * from './options.js';
export type { ModerationRules } from './rules/catalogue.js';
export { DEFAULT_RULES } from './rules/catalogue.js';
export { loadSeed, parseSeed, SeedError } from './seed/load-seed.js';
export { type ParsedSeed, type ServiceSeed, serviceSeed } from './seed/seed-schema.js';

const MB = 1024 * 1024;
const HOUR_MS = 60 * 60 * 1000;
/** 429s with a retry time a delivery may wait out before each further one spends a try. */
const WEBHOOK_FREE_WAITS = 20;
const WEBHOOK_MAX_CONCURRENT = 8;

/** Starts the reference moderation service; resolves once it is listening. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  checkOptions(options);
  const seed =
    typeof options.seed === 'string' ? loadSeed(options.seed) : options.seed ? parseSeed(options.seed) : undefined;
  const logger = options.logger ?? silentLogger;
  const storage = await createServiceStorage({
    dbPath: options.dbPath ?? ':memory:',
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    logger,
  });
  const clock = options.clock ?? systemClock;
  const sharing =
    storage instanceof PostgresStorage && options.databaseUrl !== undefined
      ? new InstanceSharing(storage, {
          databaseUrl: options.databaseUrl,
          clock,
          timers: options.timers ?? systemTimers,
          logger,
        })
      : undefined;
  const uploadDirectory = await mkdtemp(join(tmpdir(), 'bailiff-service-'));
  let pruner: AddressPruner | undefined;
  let webhooks: WebhookDispatcher | undefined;
  let expiries: ExpiryAnnouncer | undefined;
  try {
    const context = createContext(
      {
        storage,
        clock,
        ids: options.ids ?? shortRandomId,
        rules: options.rules ?? DEFAULT_RULES,
        evasion: {
          sharedIpThreshold: options.sharedIpThreshold ?? DEFAULT_SHARED_IP_THRESHOLD,
          linkExpiryMs: (options.linkExpiryDays ?? DEFAULT_LINK_EXPIRY_DAYS) * DAY_MS,
          ipBanPrefixLimits: {
            ipv4: options.ipBanMinPrefixV4 ?? DEFAULT_IP_BAN_PREFIX_LIMITS.ipv4,
            ipv6: options.ipBanMinPrefixV6 ?? DEFAULT_IP_BAN_PREFIX_LIMITS.ipv6,
          },
        },
        logger,
      },
      sharing?.changeBus,
    );
    await sharing?.start();
    const webhookTimers = options.webhookTimers ?? systemTimers;
    const destinations: DestinationPolicy = {
      allowPrivate: options.webhooksAllowPrivate ?? false,
      resolve: options.webhookResolver ?? systemResolver,
    };
    webhooks = new WebhookDispatcher(context.stores.webhookDeliveries, {
      fetch: options.webhookFetch ?? guardedFetch(destinations),
      destinations,
      clock,
      timers: webhookTimers,
      random: options.random ?? systemRandom,
      logger: context.logger,
      policy: {
        backoff: {
          baseDelayMs: options.webhookRetryBaseMs ?? DEFAULT_WEBHOOK_RETRY_BASE_MS,
          maxDelayMs: options.webhookRetryMaxMs ?? DEFAULT_WEBHOOK_RETRY_MAX_MS,
        },
        maxFreeWaits: WEBHOOK_FREE_WAITS,
        maxRetryAfterMs: HOUR_MS,
      },
      requestTimeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
      maxConcurrent: WEBHOOK_MAX_CONCURRENT,
    });
    const dispatcher = webhooks;
    const wake = () => dispatcher.wake();
    context.webhooks.onQueued = sharing ? sharing.wakeAfterCommit(wake) : wake;
    if (seed) {
      await refuseSeedDestinations(seed, dispatcher);
      await applySeed(context, seed);
    }
    // After the seed, so a large seed is planned with its own statistics.
    await storage.refreshStatistics();
    const adminToken = options.adminToken ?? randomAdminToken();
    const platform = options.platform ?? DEFAULT_PLATFORM;
    const jobs = new ImportJobs(context);
    const rateLimits = new KeyRateLimits({
      perMinute: options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
      writesPerMinute: options.writeRateLimitPerMinute ?? DEFAULT_WRITE_RATE_LIMIT_PER_MINUTE,
      allRoutes: options.rateLimitAllRoutes ?? false,
      clock,
      ...(sharing ? { sharedBuckets: sharing.rateBuckets } : {}),
    });
    const authThrottle = new AuthFailureThrottle(
      clock,
      options.authFailuresPerMinute ?? DEFAULT_AUTH_FAILURES_PER_MINUTE,
    );
    const guard = new ConnectionGuard({
      headersTimeoutMs: options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      connectionsPerAddress: options.connectionsPerAddress ?? DEFAULT_CONNECTIONS_PER_ADDRESS,
      ...(options.trustProxy?.length
        ? {
            trust: {
              proxies: parseTrustedProxies(options.trustProxy),
              header: options.trustProxyHeader ?? 'x-forwarded-for',
            },
          }
        : {}),
    });
    const app = await buildApp(context, {
      guard,
      platform,
      adminToken,
      rateLimits,
      authThrottle,
      maxUploadBytes: Math.floor((options.maxUploadMb ?? DEFAULT_MAX_UPLOAD_MB) * MB),
      uploadDirectory,
      jobs,
      webhooks,
      panel: {
        alwaysSecureCookies: options.panelSecureCookies ?? false,
        timers: options.timers ?? systemTimers,
        staffSignals: sharing?.staffSignals,
        ...(options.panelLivePerAccount === undefined
          ? {}
          : { liveConnectionsPerAccount: options.panelLivePerAccount }),
        ...(options.panelLivePerNetwork === undefined
          ? {}
          : { liveConnectionsPerNetwork: options.panelLivePerNetwork }),
        ...(options.panelLiveMax === undefined ? {} : { maxLiveConnections: options.panelLiveMax }),
        ...(options.appealsPerHour === undefined ? {} : { appealsPerHour: options.appealsPerHour }),
      },
    });
    // Before the background work starts: the rehearsal needs the storage to itself. A database in
    // memory starts empty at every start, so no storm of a network meets it.
    if (options.warmUpChecks && storage instanceof SqliteStorage && !storage.db.memory) {
      await warmUpLoginChecks(app, context, storage, { checks: options.warmUpChecks, platform });
    }
    pruner = new AddressPruner(context.stores.addressRetention, clock, options.timers ?? systemTimers, context.logger, {
      retentionMs: (options.addressHistoryDays ?? DEFAULT_ADDRESS_HISTORY_DAYS) * DAY_MS,
      intervalMs: ADDRESS_PRUNE_INTERVAL_MS,
      batchSize: ADDRESS_PRUNE_BATCH_SIZE,
    });
    pruner.start();
    // Deliveries left pending by an earlier run go out first.
    webhooks.wake();
    expiries = new ExpiryAnnouncer(context, webhookTimers, {
      intervalMs: options.webhookExpiryCheckMs ?? DEFAULT_WEBHOOK_EXPIRY_CHECK_MS,
      batchSize: EXPIRY_BATCH_SIZE,
      maxLateMs: EXPIRY_MAX_LATE_MS,
    });
    expiries.start();
    const host = options.host ?? DEFAULT_HOST;
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
    const stream = new StreamServer(
      app.server,
      context,
      {
        platform,
        pingIntervalMs: options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
        maxFrameBytes: options.streamMaxFrameBytes ?? DEFAULT_STREAM_MAX_FRAME_BYTES,
        connectionsPerKey: options.streamConnectionsPerKey ?? DEFAULT_STREAM_CONNECTIONS_PER_KEY,
        retainedChanges: options.streamRetainedChanges ?? DEFAULT_STREAM_RETAINED_CHANGES,
        stallTimeoutMs: options.streamStallTimeoutMs ?? DEFAULT_STREAM_STALL_TIMEOUT_MS,
        pageSize: STREAM_PAGE_SIZE,
        highWaterBytes: STREAM_HIGH_WATER_BYTES,
        maxBufferedBytes: STREAM_MAX_BUFFERED_BYTES,
        snapshotReuseMs: STREAM_SNAPSHOT_REUSE_MS,
      },
      { rateLimits, authThrottle, guard },
    );
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${urlHost}:${port}`,
      port,
      adminToken,
      context,
      close: () => {
        closing ??= (async () => {
          await pruner?.close();
          await expiries?.close();
          await stream.close();
          await app.close();
          await jobs.close();
          await dispatcher.close();
          await sharing?.close();
          await storage.close();
          await rm(uploadDirectory, { recursive: true, force: true });
        })();
        return closing;
      },
    };
  } catch (error) {
    await pruner?.close();
    await expiries?.close();
    await webhooks?.close();
    await sharing?.close();
    await storage.close();
    await rm(uploadDirectory, { recursive: true, force: true });
    throw error;
  }
}
