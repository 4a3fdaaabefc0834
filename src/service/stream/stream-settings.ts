/** How the stream behaves; every field has a service option (see options.ts). */
export interface StreamSettings {
  platform: string;
  pingIntervalMs: number;
  /** Largest frame a client may send; a bigger one closes the connection with 1009. */
  maxFrameBytes: number;
  /** Stream connections one server key may hold at once (one, plus overlap while reconnecting). */
  connectionsPerKey: number;
  /** Changes kept in each network's log; a client further behind gets a snapshot. */
  retainedChanges: number;
  /** Punishments in one snapshot page (and changes read per catch-up step). */
  pageSize: number;
  /** Bytes waiting on one connection above which no further page is queued until some are written. */
  highWaterBytes: number;
  /** Bytes waiting on a caught-up connection above which it is closed as too slow. */
  maxBufferedBytes: number;
  /** A connection whose queued data has not moved for this long is closed as too slow. */
  stallTimeoutMs: number;
  /** How long a rendered snapshot is kept for connections arriving after the last one took it. */
  snapshotReuseMs: number;
  /** How often the keys of open streams are looked up again, so a revoked key's streams end. @default 15000 */
  keyCheckIntervalMs?: number;
}

export const DEFAULT_STREAM_MAX_FRAME_BYTES = 65_536;
export const DEFAULT_STREAM_CONNECTIONS_PER_KEY = 3;
export const DEFAULT_STREAM_RETAINED_CHANGES = 100_000;
export const DEFAULT_STREAM_STALL_TIMEOUT_MS = 30_000;
export const STREAM_PAGE_SIZE = 1000;
export const STREAM_HIGH_WATER_BYTES = 256 * 1024;
export const STREAM_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
export const STREAM_SNAPSHOT_REUSE_MS = 10_000;
export const DEFAULT_STREAM_KEY_CHECK_INTERVAL_MS = 15_000;
/** Longest turn of catch-up work (snapshot pieces, log pages) before the event loop gets to requests. */
export const STREAM_WORK_SLICE_MS = 2;
/** Rows a snapshot render reads and renders before it yields to the event loop. */
export const STREAM_RENDER_STEP_ROWS = 200;

/** Close codes the stream uses besides ws's own (1009 for a frame over the limit). */
export const CLOSE_TOO_SLOW = 1008;
export const CLOSE_FELL_BEHIND = 1013;
