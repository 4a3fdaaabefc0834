import type { SaturationReport } from './saturation.js';

export type StreamState = 'connected' | 'connecting' | 'disconnected' | 'disabled' | 'unsupported';

/** What sync knows about the service, for `/bailiff status`. */
export interface SyncStatus {
  serviceReachable: boolean;
  lastSyncAt: number | undefined;
  streamState: StreamState;
  /** Set while `recent` answers full pages that do not reach the previous poll. */
  saturation: SaturationReport | undefined;
}

export function createSyncStatus(streamState: StreamState): SyncStatus {
  return { serviceReachable: true, lastSyncAt: undefined, streamState, saturation: undefined };
}
