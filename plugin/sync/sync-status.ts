import type { StreamState } from '../commands/deps.js';

/** What sync knows about the service, for `/bailiff status`. */
export interface SyncStatus {
  serviceReachable: boolean;
  lastSyncAt: number | undefined;
  streamState: StreamState;
}

export function createSyncStatus(streamState: StreamState): SyncStatus {
  return { serviceReachable: true, lastSyncAt: undefined, streamState };
}
