import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open-db.js';
import { startWalCheckpointer, type WalCheckpointer } from '../db/wal-checkpointer.js';
import { systemClock } from '../ports/clock.js';
import { silentLogger } from '../ports/logger.js';
import { buildApp } from './app.js';
import { createContext } from './context.js';
import { SERVICE_MIGRATIONS } from './db/schema.js';
import { refreshStatistics } from './db/statistics.js';
import { DAY_MS, DEFAULT_LINK_EXPIRY_DAYS, DEFAULT_SHARED_IP_THRESHOLD } from './evasion/evasion-settings.js';
import { ImportJobs } from './migration/import-job.js';
import {
  checkOptions,
  DEFAULT_HOST,
  DEFAULT_MAX_UPLOAD_MB,
  DEFAULT_PING_INTERVAL_MS,
  DEFAULT_PLATFORM,
  DEFAULT_PORT,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  type RunningService,
  randomAdminToken,
  type ServiceOptions,
  shortRandomId,
} from './options.js';
import { DEFAULT_RULES } from './rules/catalogue.js';
import { applySeed } from './seed/apply-seed.js';
import { loadSeed, parseSeed } from './seed/load-seed.js';
import { StreamServer } from './stream/stream-server.js';

export * from './options.js';
export type { ModerationRules } from './rules/catalogue.js';
export { DEFAULT_RULES } from './rules/catalogue.js';
export { loadSeed, parseSeed, SeedError } from './seed/load-seed.js';
export { type ParsedSeed, type ServiceSeed, serviceSeed } from './seed/seed-schema.js';

const MB = 1024 * 1024;

/** Starts the reference moderation service; resolves once it is listening. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  checkOptions(options);
  const seed =
    typeof options.seed === 'string' ? loadSeed(options.seed) : options.seed ? parseSeed(options.seed) : undefined;
  const db = openDb(options.dbPath ?? ':memory:');
  const uploadDirectory = await mkdtemp(join(tmpdir(), 'bailiff-service-'));
  let checkpointer: WalCheckpointer | undefined;
  try {
    migrate(db, 'service', SERVICE_MIGRATIONS);
    const context = createContext({
      db,
      clock: options.clock ?? systemClock,
      ids: options.ids ?? shortRandomId,
      rules: options.rules ?? DEFAULT_RULES,
      evasion: {
        sharedIpThreshold: options.sharedIpThreshold ?? DEFAULT_SHARED_IP_THRESHOLD,
        linkExpiryMs: (options.linkExpiryDays ?? DEFAULT_LINK_EXPIRY_DAYS) * DAY_MS,
      },
      logger: options.logger ?? silentLogger,
    });
    if (seed) applySeed(context, seed);
    // After the seed, so a large seed is planned with its own statistics.
    refreshStatistics(db);
    // Every login check commits; a checkpoint inside one of those commits would be its p99.
    checkpointer = startWalCheckpointer(db, { logger: context.logger });
    const adminToken = options.adminToken ?? randomAdminToken();
    const platform = options.platform ?? DEFAULT_PLATFORM;
    const jobs = new ImportJobs(context);
    const app = await buildApp(context, {
      platform,
      adminToken,
      rateLimitPerMinute: options.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE,
      rateLimitAllRoutes: options.rateLimitAllRoutes ?? false,
      maxUploadBytes: Math.floor((options.maxUploadMb ?? DEFAULT_MAX_UPLOAD_MB) * MB),
      uploadDirectory,
      jobs,
    });
    const host = options.host ?? DEFAULT_HOST;
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
    const stream = new StreamServer(app.server, context, {
      platform,
      pingIntervalMs: options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS,
    });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${urlHost}:${port}`,
      port,
      adminToken,
      close: () => {
        closing ??= (async () => {
          await stream.close();
          await app.close();
          await jobs.close();
          await checkpointer?.stop();
          db.close();
          await rm(uploadDirectory, { recursive: true, force: true });
        })();
        return closing;
      },
    };
  } catch (error) {
    await checkpointer?.stop();
    db.close();
    await rm(uploadDirectory, { recursive: true, force: true });
    throw error;
  }
}
