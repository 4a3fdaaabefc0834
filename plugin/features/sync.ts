import { systemRandom } from '../../src/ports/random.js';
import { systemTimers } from '../../src/ports/timers.js';
import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';
import { applyPageInOneTransaction } from '../sync/apply-page.js';
import { applyPunishment } from '../sync/apply-punishment.js';
import { liftMissingFromSnapshot } from '../sync/lift-missing.js';
import { sqliteStreamPositionStore } from '../sync/stream-position.js';
import { createSync, type Sync, type SyncNowResult } from '../sync/sync-service.js';
import type { SyncStatus } from '../sync/sync-status.js';

export interface SyncFeature extends Feature {
  readonly status: SyncStatus;
  syncNow(): Promise<SyncNowResult>;
}

/** Keeps the cache in step with the service (stream and polls); started anew with the new `sync:` after a reload. */
export function installSync(core: Core, hooks: FeatureHooks): SyncFeature {
  const { enforcement, effects } = core;
  const streamPosition = sqliteStreamPositionStore(core.db, () => enforcement.clock.now());
  // An empty cache has nothing a resume would build on: the first connection takes a snapshot.
  if (core.cache.count() === 0) streamPosition.clear();
  const newSync = (): Sync =>
    createSync({
      client: core.client,
      scheduler: hooks.scheduler,
      sync: core.settings.config().sync,
      apply: (punishment) => {
        const outcome = applyPunishment(enforcement, punishment);
        effects.announceSynced(outcome, punishment);
        return outcome;
      },
      applyPage: (applyAll) => applyPageInOneTransaction(enforcement, applyAll),
      liftMissing: (activeIds, storedBefore) => liftMissingFromSnapshot(enforcement, activeIds, storedBefore),
      clock: enforcement.clock,
      timers: systemTimers,
      random: systemRandom,
      logger: enforcement.logger,
      backfillOnStart: core.cache.count() === 0,
      streamPosition,
    });
  let sync = newSync();
  let started = false;
  const stopFollowingSettings = core.settings.onReplaced(() => {
    sync.stop();
    sync = newSync();
    if (started) sync.start();
  });

  return {
    name: 'sync',
    get status() {
      return sync.status;
    },
    syncNow: () => sync.syncNow(),
    start() {
      started = true;
      sync.start();
    },
    stop() {
      started = false;
      stopFollowingSettings();
      sync.stop();
      hooks.release();
    },
  };
}
