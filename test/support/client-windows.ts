import { readFileSync } from 'node:fs';
import type { RecordedFetch } from './fetch-recorder.js';

type Sent = Extract<RecordedFetch, { event: 'sent' }>;
type RateLimited = Extract<RecordedFetch, { event: 'rate-limited' }>;

export interface ClientWindowViolation {
  request: Sent;
  limitedBy: RateLimited;
  /** How long after the plugin received the 429 it sent the request. */
  afterMs: number;
}

/** The lines a {@link fetchRecorderEnv} game server wrote; none when it never sent anything. */
export function readFetchLog(logPath: string): RecordedFetch[] {
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch {
    return [];
  }
  // A 429's line is written once its body is read, numbered when its status line came: order by number.
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RecordedFetch)
    .sort((a, b) => a.seq - b.seq);
}

/**
 * Requests the plugin sent to `origin` after it had received a 429 from there and before the wait
 * that 429 asked for was over, both by the plugin's own clock. Nothing is forgiven: a request
 * recorded before the 429 (`seq`) was sent before the plugin could know of it, and one recorded
 * after it passed the gate, whose window ends at the gate's `Date.now()` plus the wait, at or
 * after the 429's `atMs` plus the wait. So, unlike arrival times at the proxy, neither a busy
 * proxy nor a late timer in the plugin moves a request across a window's edge.
 */
export function sentInsideClientWindows(log: readonly RecordedFetch[], origin: string): ClientWindowViolation[] {
  const windows = log.filter(
    (entry): entry is RateLimited => entry.event === 'rate-limited' && entry.origin === origin,
  );
  const found: ClientWindowViolation[] = [];
  for (const entry of log) {
    if (entry.event !== 'sent' || entry.origin !== origin) continue;
    const limitedBy = windows.find(
      (window) => window.seq < entry.seq && entry.atMs < window.atMs + window.waitSeconds * 1000,
    );
    if (limitedBy) found.push({ request: entry, limitedBy, afterMs: entry.atMs - limitedBy.atMs });
  }
  return found;
}

/** One line per violation, for a failure message. */
export function describeClientViolations(violations: readonly ClientWindowViolation[]): string[] {
  return violations.map(
    ({ request, limitedBy, afterMs }) =>
      `${request.method} ${request.path} (#${request.seq}) sent ${afterMs} ms after the 429 (${limitedBy.waitSeconds} s) of ${limitedBy.method} ${limitedBy.path} (#${limitedBy.seq})`,
  );
}
