import type { Fault, RetryChannel } from './fault-plan.js';

/** What the proxy did: a planned fault, or `not-offered` (an extension answered 404 in the contract profile). */
export type LoggedFault = Fault | { kind: 'not-offered' };

/** One request as the proxy saw it. Times are epoch ms, all from {@link proxyNow}. */
export interface ProxiedRequestEntry {
  index: number;
  arrivedAtMs: number;
  method: string;
  path: string;
  query: string;
  /** Contract endpoint or extension name (see contract-profile.ts). */
  endpoint: string;
  /** `key#1`, `key#2`, ... in order of first use, or `none`: the key itself is never kept in the log. */
  key: string;
  /** The `Idempotency-Key` header as the client sent it (before any stripping). */
  idempotencyKey?: string;
  body: string;
  /** Which client connection it came on, numbered from 1 in order of opening. */
  connection: number;
  /** Whether it was a WebSocket upgrade. */
  upgrade: boolean;
  fault: LoggedFault;
  /** What the service answered, when the request reached it. */
  upstreamStatus?: number;
  /** True when the service could not be reached (it was stopped). */
  upstreamDown?: boolean;
  /** What the client received; undefined when the connection was dropped. */
  status?: number;
}

/** A 429 sent to a key: from when it was sent to that time plus the advertised wait. */
export interface RateLimitWindow {
  key: string;
  requestIndex: number;
  /** `upstream`: the service's own 429, relayed. */
  channel: RetryChannel | 'upstream';
  waitSeconds: number;
  opensAtMs: number;
  closesAtMs: number;
}

export interface ProxyLog {
  requests: ProxiedRequestEntry[];
  windows: RateLimitWindow[];
}

/**
 * Epoch ms by the wall clock, the one the plugin's rate-limit gate reads (`Date.now()`): a window
 * stands for the client's own wait, so its edges and the arrivals must be on that clock. Then a
 * request sent once the wait is over arrives at or after the window's end, however late either
 * process runs (lateness only delays the arrival). `performance.timeOrigin + performance.now()`
 * follows another clock from each process's start: on a busy machine it put a repeat the plugin
 * sent at the end of its wait 18 ms inside the window.
 */
export function proxyNow(): number {
  return Date.now();
}

/** Labels API keys by order of first use, so the log can tell keys apart without holding them. */
export function keyLabeller(): (key: string | undefined) => string {
  const labels = new Map<string, string>();
  return (key) => {
    if (key === undefined || key === '') return 'none';
    let label = labels.get(key);
    if (label === undefined) {
      label = `key#${labels.size + 1}`;
      labels.set(key, label);
    }
    return label;
  };
}

/** `429 retry-after`, `500`, `drop-after`, `pass`, `not-offered`: a fault as reports name it. */
export function faultLabel(fault: LoggedFault): string {
  if (fault.kind === 'rate-limit') return `429 ${fault.channel}`;
  if (fault.kind === 'server-error') return String(fault.status);
  if (fault.kind === 'slow') return `slow ${fault.delayMs}ms`;
  if (fault.kind === 'answer') return `answer ${fault.status}`;
  return fault.kind;
}

/** Every fault the contract profile injects, by {@link faultLabel}. */
export const INJECTED_FAULT_LABELS = [
  '429 retry-after',
  '429 x-rate-limit',
  '429 body',
  '429 http-date',
  '429 header-and-body',
  '500',
  '503',
  'drop-before',
  'drop-after',
] as const;

/** Counts of the log's requests by {@link faultLabel}, for reports. */
export function faultCounts(log: ProxyLog): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of log.requests) {
    const name = faultLabel(entry.fault);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return counts;
}
