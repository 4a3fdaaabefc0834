import type { ModerationApi } from '../../src/api/moderation-api.js';
import { MAX_RECENT_HOURS, type Punishment } from '../../src/contract/schemas.js';
import { errorMessage } from '../../src/errors/error-message.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Random } from '../../src/ports/random.js';
import type { Timers } from '../../src/ports/timers.js';
import type { ScheduledTask, Scheduler } from '../../src/runtime/plugin-api.js';
import type { BailiffConfig } from '../config/schema.js';
import type { ApplyOutcome } from './apply-punishment.js';
import { pollRecent } from './poller.js';
import { createSaturationWatch } from './saturation.js';
import { createStreamClient, type StreamClient, type StreamClientOptions } from './stream-client.js';
import type { StreamPositionStore } from './stream-position.js';
import { createSyncStatus, type SyncStatus } from './sync-status.js';

export interface SyncOptions {
  client: Pick<ModerationApi, 'recentPunishments' | 'streamEndpoint' | 'gate' | 'extensions'>;
  scheduler: Scheduler;
  sync: BailiffConfig['sync'];
  apply: (punishment: Punishment) => ApplyOutcome;
  /** Runs the applies of one snapshot page together (one transaction). @default runs them as they are */
  applyPage?: (applyAll: () => void) => void;
  /**
   * Lifts cached punishments still enforced but absent from a stream snapshot (the complete set
   * of active ones), leaving rows stored at or after `storedBefore` alone; returns how many.
   * @default lifts nothing
   */
  liftMissing?: (activeIds: ReadonlySet<string>, storedBefore: number) => number;
  clock: Clock;
  timers: Timers;
  random: Random;
  logger: Logger;
  /** @default opens a `ws` WebSocket */
  connect?: StreamClientOptions['connect'];
  /** The cache is empty: the first poll asks for the widest window the contract allows. @default false */
  backfillOnStart?: boolean;
  /** Where the stream's last applied sequence is kept. @default in memory */
  streamPosition?: StreamPositionStore;
}

export interface SyncNowResult {
  /** Punishments stored or changed by this sync. */
  applied: number;
}

export interface Sync {
  start(): void;
  stop(): void;
  syncNow(): Promise<SyncNowResult>;
  readonly status: SyncStatus;
}

/**
 * Keeps the cache in step with the service: the push stream when the service offers one
 * (`sync.stream: auto`), and a poll of `recent` every `sync.pollIntervalMs` while the stream
 * is not connected.
 */
export function createSync(options: SyncOptions): Sync {
  const { logger } = options;
  const status = createSyncStatus(options.sync.stream === 'off' ? 'disabled' : 'disconnected');
  let pollTask: ScheduledTask | undefined;
  let stream: StreamClient | undefined;
  // When the current stream connection was opened: the snapshot cannot vouch for rows stored later.
  let connectingSince = options.clock.now();
  // The ids and newest creation of the snapshot pages received so far on this connection.
  let snapshotIds = new Set<string>();
  let snapshotNewest = Number.NEGATIVE_INFINITY;
  const saturation = createSaturationWatch({ clock: options.clock, logger });
  let backfillPending = options.backfillOnStart === true;
  let catchUpTask: ScheduledTask | undefined;
  let running = false;

  const applySafely = (punishment: Punishment): void => {
    try {
      options.apply(punishment);
    } catch (error) {
      logger.error('could not apply a pushed punishment', {
        punishmentId: punishment.id,
        error: errorMessage(error),
      });
    }
  };

  const liftMissing = (activeIds: ReadonlySet<string>): void => {
    if (!options.liftMissing) return;
    try {
      const lifted = options.liftMissing(activeIds, connectingSince);
      if (lifted > 0) logger.info('lifted cached punishments the stream snapshot no longer lists', { lifted });
    } catch (error) {
      logger.error('could not lift punishments missing from the stream snapshot', {
        error: errorMessage(error),
      });
    }
  };

  const newestOf = (punishments: readonly Punishment[]) =>
    Math.max(...punishments.map((punishment) => Date.parse(punishment.createdAt)));

  const poll = async () => {
    const result = await pollRecent({
      client: options.client,
      recentHours: () => (backfillPending ? MAX_RECENT_HOURS : options.sync.recentHours),
      apply: options.apply,
      status,
      clock: options.clock,
      logger,
      onAnswered: (punishments) => {
        backfillPending = false;
        status.saturation = saturation.observe(punishments);
      },
    });
    // A reachable service that refused the widest window: poll the configured one from now on.
    if (!result.ok && status.serviceReachable) backfillPending = false;
    scheduleCatchUp();
    return result;
  };

  // While pages overflow, extra polls every minPollIntervalMs beside the regular ones shrink the gaps.
  function scheduleCatchUp(): void {
    if (!running || catchUpTask || !status.saturation) return;
    catchUpTask = options.scheduler.runLater(async () => {
      catchUpTask = undefined;
      if (status.streamState !== 'connected') await poll();
    }, options.sync.minPollIntervalMs);
  }

  return {
    status,
    start() {
      running = true;
      if (options.sync.stream === 'auto') {
        stream = createStreamClient({
          endpoint: () => options.client.streamEndpoint(),
          onSnapshotPage: (punishments, complete) => {
            const applyAll = () => {
              for (let at = punishments.length - 1; at >= 0; at -= 1) applySafely(punishments[at]!);
            };
            try {
              if (options.applyPage) options.applyPage(applyAll);
              else applyAll();
            } catch (error) {
              logger.error('could not store a page of the stream snapshot', { error: errorMessage(error) });
            }
            for (const punishment of punishments) snapshotIds.add(punishment.id);
            if (punishments.length > 0) snapshotNewest = Math.max(snapshotNewest, newestOf(punishments));
            if (!complete) return;
            liftMissing(snapshotIds);
            saturation.coveredUpTo(snapshotNewest);
            snapshotIds = new Set();
            snapshotNewest = Number.NEGATIVE_INFINITY;
            status.saturation = undefined;
            backfillPending = false;
            status.serviceReachable = true;
            status.lastSyncAt = options.clock.now();
          },
          onCaughtUp: () => {
            status.saturation = undefined;
            backfillPending = false;
            status.serviceReachable = true;
            status.lastSyncAt = options.clock.now();
          },
          onPunishment: (punishment) => {
            applySafely(punishment);
            saturation.coveredUpTo(newestOf([punishment]));
            status.lastSyncAt = options.clock.now();
          },
          position: options.streamPosition,
          onStateChange: (state) => {
            if (state === 'connecting') {
              connectingSince = options.clock.now();
              snapshotIds = new Set();
              snapshotNewest = Number.NEGATIVE_INFINITY;
            }
            status.streamState = state;
            logger.info('stream state', { state });
          },
          timers: options.timers,
          random: options.random,
          clock: options.clock,
          gate: options.client.gate,
          extensions: options.client.extensions,
          logger,
          minDelayMs: options.sync.reconnectMinDelayMs,
          maxDelayMs: options.sync.reconnectMaxDelayMs,
          connect: options.connect,
        });
        stream.start();
      }
      pollTask = options.scheduler.repeat(
        async () => {
          if (status.streamState === 'connected') return;
          await poll();
        },
        options.sync.pollIntervalMs,
        0,
      );
    },
    stop() {
      running = false;
      catchUpTask?.cancel();
      catchUpTask = undefined;
      pollTask?.cancel();
      pollTask = undefined;
      stream?.stop();
      stream = undefined;
    },
    async syncNow() {
      const result = await poll();
      return { applied: result.applied };
    },
  };
}
