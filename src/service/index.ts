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
import { CHAT_LOG_PRUNE_BATCH_SIZE, CHAT_LOG_PRUNE_INTERVAL_MS, ChatLogPruner } from './chat-log/chat-log-pruner.js';
import { parseTrustedProxies } from './connections/client-origin.js';
import { ConnectionGuard } from './connections/connection-guard.js';
import {
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_CONNECTIONS_PER_ADDRESS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
} from './connections/connection-settings.js';
import { createContext } from './context.js';
import { drainInstance } from './drain/drain.js';
import { InFlightRequests } from './drain/in-flight-requests.js';
import { DAY_MS, DEFAULT_LINK_EXPIRY_DAYS, DEFAULT_SHARED_IP_THRESHOLD } from './evasion/evasion-settings.js';
import { Readiness } from './health/readiness.js';
import { AuthFailureThrottle } from './http/auth-throttle.js';
import { KeyRateLimits } from './http/rate-limit.js';
import { type MetricsListener, startMetricsListener } from './metrics/metrics-access.js';
import { ServiceMetrics } from './metrics/service-metrics.js';
import { DEFAULT_MIGRATION_LEASE_MS, ImportJobs } from './migration/import-job.js';
import {
  checkOptions,
  DEFAULT_ADDRESS_HISTORY_DAYS,
  DEFAULT_AUTH_FAILURES_PER_MINUTE,
  DEFAULT_DRAIN_DELAY_MS,
  DEFAULT_DRAIN_TIMEOUT_MS,
  DEFAULT_HOST,
  DEFAULT_MAX_UPLOAD_MB,
  DEFAULT_METRICS_HOST,
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
import { ServerManagement } from './servers/manage-servers.js';
import { InstanceSharing } from './several-instances.js';
import { createServiceStorage } from './store/create-storage.js';
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
import { DEFAULT_WARM_UP_MAX_MS, warmUpLoginChecks } from './warm-up/login-warm-up.js';
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
  const clock = options.clock ?? systemClock;
  const storage = await createServiceStorage({
    dbPath: options.dbPath ?? ':memory:',
    ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
    logger,
    clock,
  });
  const sharing =
    storage.pool !== undefined && options.databaseUrl !== undefined
      ? new InstanceSharing(
          { pool: storage.pool },
          {
            databaseUrl: options.databaseUrl,
            clock,
            timers: options.timers ?? systemTimers,
            logger,
          },
        )
      : undefined;
  const uploadDirectory = await mkdtemp(join(tmpdir(), 'bailiff-service-'));
  let pruner: AddressPruner | undefined;
  let chatLogPruner: ChatLogPruner | undefined;
  let webhooks: WebhookDispatcher | undefined;
  let expiries: ExpiryAnnouncer | undefined;
  let jobs: ImportJobs | undefined;
  let metricsListener: MetricsListener | undefined;
  // Only when asked for: with metrics off, no request pays for counting.
  const metrics =
    options.metricsToken !== undefined || options.metricsPort !== undefined ? new ServiceMetrics() : undefined;
  if (metrics) storage.observeWaits((waitMs) => metrics.databaseWaitSeconds.observe(waitMs / 1000));
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
      ...(metrics ? { onFailure: (outcome: 'retry' | 'dead') => metrics.webhookFailures.inc({ outcome }) } : {}),
    });
    const dispatcher = webhooks;
    context.webhooks.onQueued = () => dispatcher.wake();
    if (seed) {
      await refuseSeedDestinations(seed, dispatcher);
      await applySeed(context, seed);
    }
    // After the seed, so a large seed is planned with its own statistics.
    await storage.refreshStatistics();
    const adminToken = options.adminToken ?? randomAdminToken();
    const platform = options.platform ?? DEFAULT_PLATFORM;
    // On real timers: their leases are held against other processes, whatever clock a test drives.
    jobs = new ImportJobs(context, {
      leaseMs: options.migrationLeaseMs ?? DEFAULT_MIGRATION_LEASE_MS,
      timers: systemTimers,
    });
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
    // The stream server exists once the app listens; a key revoked before then has no stream to end.
    let recheckStreamKeys = () => {};
    const servers = new ServerManagement({
      storage,
      clock,
      ...(options.newServerKey ? { newKey: options.newServerKey } : {}),
      onKeysRevoked: () => recheckStreamKeys(),
    });
    const readiness = new Readiness(storage, options.timers ?? systemTimers, logger);
    const app = await buildApp(context, {
      guard,
      servers,
      readiness,
      ...(metrics ? { metrics } : {}),
      ...(metrics && options.metricsPort === undefined && options.metricsToken !== undefined
        ? { metricsToken: options.metricsToken }
        : {}),
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
    if (options.warmUpChecks && storage.canRehearse()) {
      await warmUpLoginChecks(app, context, storage, {
        checks: options.warmUpChecks,
        maxMs: options.warmUpMaxMs ?? DEFAULT_WARM_UP_MAX_MS,
        platform,
      });
      // The rehearsal's requests are not the operator's: the metrics start with the first real one.
      const rehearsedMetrics = [
        metrics?.requests,
        metrics?.loginCheckSeconds,
        metrics?.rateLimited,
        metrics?.databaseWaitSeconds,
      ];
      for (const rehearsed of rehearsedMetrics) {
        rehearsed?.reset();
      }
    }
    pruner = new AddressPruner(context.stores.addressRetention, clock, options.timers ?? systemTimers, context.logger, {
      retentionMs: (options.addressHistoryDays ?? DEFAULT_ADDRESS_HISTORY_DAYS) * DAY_MS,
      intervalMs: ADDRESS_PRUNE_INTERVAL_MS,
      batchSize: ADDRESS_PRUNE_BATCH_SIZE,
    });
    pruner.start();
    chatLogPruner = new ChatLogPruner(storage, clock, options.timers ?? systemTimers, context.logger, {
      intervalMs: CHAT_LOG_PRUNE_INTERVAL_MS,
      batchSize: CHAT_LOG_PRUNE_BATCH_SIZE,
    });
    chatLogPruner.start();
    // Deliveries left pending by an earlier run go out first.
    webhooks.wake();
    expiries = new ExpiryAnnouncer(context, webhookTimers, {
      intervalMs: options.webhookExpiryCheckMs ?? DEFAULT_WEBHOOK_EXPIRY_CHECK_MS,
      batchSize: EXPIRY_BATCH_SIZE,
      maxLateMs: EXPIRY_MAX_LATE_MS,
    });
    expiries.start();
    // Imports left running by an instance that stopped (or by this one before a restart) go on here.
    jobs.start();
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
        ...(options.streamKeyCheckIntervalMs === undefined
          ? {}
          : { keyCheckIntervalMs: options.streamKeyCheckIntervalMs }),
      },
      { rateLimits, authThrottle, guard },
    );
    recheckStreamKeys = () => void stream.recheckKeys();
    const inFlight = new InFlightRequests(app.server);
    if (metrics) {
      metrics.bind({
        streamConnections: () => stream.openConnections,
        webhookQueueDepth: () => context.stores.webhooks.pendingDeliveries(),
        databaseLoad: () => storage.load(),
      });
      stream.on('connection:opened', ({ resumed }) =>
        metrics.streamsOpened.inc({ start: resumed ? 'resumed' : 'snapshot' }),
      );
      stream.on('handshake:refused', ({ status }) => {
        metrics.streamsRefused.inc({ status: String(status) });
        if (status === 429) metrics.rateLimited.inc({ channel: 'stream' });
      });
      if (options.metricsPort !== undefined) {
        metricsListener = await startMetricsListener(metrics, {
          host: options.metricsHost ?? DEFAULT_METRICS_HOST,
          port: options.metricsPort,
          ...(options.metricsToken === undefined ? {} : { token: options.metricsToken }),
        });
      }
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | undefined;
    let draining: Promise<void> | undefined;
    const listener = metricsListener;
    const close = () => {
      closing ??= (async () => {
        await listener?.close();
        await pruner?.close();
        await chatLogPruner?.close();
        await expiries?.close();
        await stream.close();
        await app.close();
        await jobs?.close();
        await dispatcher.close();
        await sharing?.close();
        await storage.close();
        await rm(uploadDirectory, { recursive: true, force: true });
      })();
      return closing;
    };
    return {
      url: `http://${urlHost}:${port}`,
      port,
      adminToken,
      context,
      ...(listener ? { metricsUrl: listener.url } : {}),
      close,
      drain: () => {
        draining ??= drainInstance({
          readiness,
          inFlight,
          stream,
          logger,
          delayMs: options.drainDelayMs ?? DEFAULT_DRAIN_DELAY_MS,
          timeoutMs: options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS,
          close,
        });
        return draining;
      },
    };
  } catch (error) {
    await metricsListener?.close();
    await pruner?.close();
    await chatLogPruner?.close();
    await expiries?.close();
    await jobs?.close();
    await webhooks?.close();
    await sharing?.close();
    await storage.close();
    await rm(uploadDirectory, { recursive: true, force: true });
    throw error;
  }
}
