import type { GateReason } from '../../src/api/errors.js';
import type { ExtensionState } from '../../src/api/extension-support.js';
import type { ExtensionName } from '../../src/contract/endpoints.js';
import type { LoginCheckState } from '../enforcement/login-check-support.js';
import type { EvasionStatus } from '../evasion/evasion.js';
import type { SaturationReport } from '../sync/saturation.js';
import type { StreamState } from '../sync/sync-status.js';

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
  evasion?: EvasionStatus;
}
