import type { ProxyTrust } from './client-origin.js';

/** How long a client may take, how many connections it may hold, and which proxies speak for it. */
export interface ConnectionSettings {
  /** A request's headers must arrive within this long of its first byte (or of the connection). */
  headersTimeoutMs: number;
  /** A request's whole body must arrive within this long of its headers; an upload must keep moving instead. */
  bodyTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Connections one client address may hold open at once. */
  connectionsPerAddress: number;
  /** Proxies whose forwarding header is believed; undefined: none, every peer is the client. */
  trust?: ProxyTrust;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
export const DEFAULT_CONNECTIONS_PER_ADDRESS = 100;

/**
 * An upload (a migration file) is measured by its progress, not its whole length: each window of
 * `bodyTimeoutMs` must bring at least this many bytes a second on average, so a 100 MB file on a
 * slow line arrives while a client dripping bytes is closed.
 */
export const UPLOAD_MIN_BYTES_PER_SECOND = 2048;

/** How often node looks for requests whose headers are late: a tenth of the limit, within 100 ms to 1 s. */
export function headersCheckIntervalMs(headersTimeoutMs: number): number {
  return Math.min(1000, Math.max(100, Math.floor(headersTimeoutMs / 10)));
}
