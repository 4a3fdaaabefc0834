import { EXTENSION_NAMES } from '../../src/contract/endpoints.js';
import type { Core } from '../core/core.js';
import type { Feature } from '../core/feature.js';
import type { StatusSnapshot } from '../status/status-snapshot.js';
import type { EnforcementFeature } from './enforcement.js';
import type { EvasionFeature } from './evasion.js';
import type { SyncFeature } from './sync.js';

export interface StatusFeature extends Feature {
  snapshot(): StatusSnapshot;
}

/** `/bailiff status`: one snapshot of the connection, sync, outbox, login check and ban evasion. */
export function installStatus(
  core: Core,
  features: {
    sync: Pick<SyncFeature, 'status'>;
    enforcement: Pick<EnforcementFeature, 'loginCheckState'>;
    evasion: Pick<EvasionFeature, 'status'>;
  },
): StatusFeature {
  const { gate, extensions, outbox, cache, settings } = core;
  return {
    name: 'status',
    snapshot() {
      const stats = outbox.stats();
      const now = core.enforcement.clock.now();
      const closure = gate.closure(now);
      const sync = features.sync.status;
      return {
        serviceReachable: sync.serviceReachable,
        ...(closure ? { held: { reason: closure.reason, untilMs: closure.untilMs, endpoint: closure.endpoint } } : {}),
        keyRejected: gate.isKeyRejected,
        keySource: core.keySource,
        extensions: Object.fromEntries(EXTENSION_NAMES.map((name) => [name, extensions.state(name)])),
        lastSyncAt: sync.lastSyncAt,
        streamState: sync.streamState,
        cachedPunishments: cache.count(),
        outboxPending: stats.pending + stats.inFlight,
        outboxDead: stats.dead,
        loginCheck: features.enforcement.loginCheckState(now),
        saturation: sync.saturation,
        pollIntervalMs: settings.config().sync.pollIntervalMs,
        catchUpPollIntervalMs: settings.config().sync.minPollIntervalMs,
        evasion: features.evasion.status(),
      };
    },
    stop: () => {},
  };
}
