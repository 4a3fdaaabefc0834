/**
 * Preloaded into a game server process (`node --import`, see {@link fetchRecorderEnv}) when an
 * e2e test must know what the plugin itself sent and when, by its own clock: appends one JSON
 * line per `fetch` call made and per 429 handed back, to the file `BAILIFF_TEST_FETCH_LOG` names.
 * One thread records both, so `seq` orders them exactly, whatever the load on the machine.
 */
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { advertisedWaitSeconds } from './proxy-answers.js';

export const FETCH_LOG_VARIABLE = 'BAILIFF_TEST_FETCH_LOG';

/** One line of the log. `atMs` is `Date.now()`, the clock the plugin's rate-limit gate reads. */
export type RecordedFetch =
  | { seq: number; event: 'sent'; atMs: number; method: string; origin: string; path: string }
  /**
   * A 429, numbered and timed when its status line reached the plugin (before its body, which
   * the plugin may still be reading), with the wait its headers or body advertise.
   */
  | {
      seq: number;
      event: 'rate-limited';
      atMs: number;
      method: string;
      origin: string;
      path: string;
      waitSeconds: number;
    };

/** Environment for `startGameServerProcess` that preloads this recorder, writing to `logPath`. */
export function fetchRecorderEnv(recorderPath: string, logPath: string): Record<string, string> {
  const preload = `--import=${pathToFileURL(recorderPath).href}`;
  return {
    NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(' '),
    [FETCH_LOG_VARIABLE]: logPath,
  };
}

function describeCall(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]) {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  return { method, origin: url.origin, path: url.pathname };
}

/**
 * `fetch` that hands each call and each 429 to `record`, in order, numbered from 0. A 429 is
 * numbered when its status line arrives and recorded once its body (read from a copy) says its
 * wait; the caller gets the answer as it arrives, body unread.
 */
export function recordingFetch(realFetch: typeof fetch, record: (entry: RecordedFetch) => void): typeof fetch {
  let seq = 0;
  return async (input, init) => {
    const call = describeCall(input, init);
    record({ seq: seq++, event: 'sent', atMs: Date.now(), ...call });
    const response = await realFetch(input, init);
    if (response.status !== 429) return response;
    // Known from here: whatever is sent while its body is still on the way comes after it.
    const limited = { seq: seq++, atMs: Date.now() };
    response
      .clone()
      .text()
      .catch(() => '')
      .then((body) => {
        const waitSeconds = advertisedWaitSeconds(response.headers, body, limited.atMs);
        record({ ...limited, event: 'rate-limited', ...call, waitSeconds });
      });
    return response;
  };
}

function install(logPath: string): void {
  // Synchronous, so a line is on disk before the caller's code runs on.
  globalThis.fetch = recordingFetch(globalThis.fetch, (entry) => appendFileSync(logPath, `${JSON.stringify(entry)}\n`));
}

const logPath = process.env[FETCH_LOG_VARIABLE];
if (logPath) install(logPath);
