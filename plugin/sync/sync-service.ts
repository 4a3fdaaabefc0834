import type { ModerationApi } from '../../src/api/moderation-api.js';
import type { Punishment } from '../../src/api/schemas.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Random } from '../../src/ports/random.js';
import type { Timers } from '../../src/ports/timers.js';
import type { ScheduledTask, Scheduler } from '../../src/runtime/plugin-api.js';
import type { SyncNowResult } from '../commands/deps.js';
import type { BailiffConfig } from '../config/schema.js';
import type { ApplyOutcome } from './apply-punishment.js';
import { pollRecent } from './poller.js';
import { createStreamClient, type StreamClient, type StreamClientOptions } from './stream-client.js';
import { createSyncStatus, type SyncStatus } from './sync-status.js';

export interface SyncOptions {
  client: Pick<ModerationApi, 'recentPunishments' | 'streamEndpoint'>;
  scheduler: Scheduler;
  sync: BailiffConfig['sync'];
  apply: (punishment: Punishment) => ApplyOutcome;
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

  const applySafely = (punishment: Punishment): void => {
    try {
      options.apply(punishment);
    } catch (error) {
      logger.error('could not apply a pushed punishment', {
        punishmentId: punishment.id,
        error: error instanceof Error ? error.message : String(error),
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
        error: error instanceof Error ? error.message : String(error),
      });
    }
  };

  const poll = () =>
    pollRecent({
      client: options.client,
      recentHours: () => options.sync.recentHours,
      apply: options.apply,
      status,
      clock: options.clock,
      logger,
    });

  return {
    status,
    start() {
      if (options.sync.stream === 'auto') {
        stream = createStreamClient({
          endpoint: () => options.client.streamEndpoint(),
          onSnapshot: (punishments) => {
            for (let at = punishments.length - 1; at >= 0; at -= 1) applySafely(punishments[at]!);
            liftMissing(new Set(punishments.map((punishment) => punishment.id)));
            status.serviceReachable = true;
            status.lastSyncAt = options.clock.now();
          },
          onPunishment: (punishment) => {
            applySafely(punishment);
            status.lastSyncAt = options.clock.now();
          },
          onStateChange: (state) => {
            if (state === 'connecting') connectingSince = options.clock.now();
            status.streamState = state;
            logger.info('stream state', { state });
          },
          timers: options.timers,
          random: options.random,
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
