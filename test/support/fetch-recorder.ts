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
  /** A 429, logged after its body was read, just before the plugin's code receives it. */
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

type Unnumbered<T> = T extends unknown ? Omit<T, 'seq'> : never;

function describeCall(input: Parameters<typeof fetch>[0], init: Parameters<typeof fetch>[1]) {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(href);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  return { method, origin: url.origin, path: url.pathname };
}

function install(logPath: string): void {
  const realFetch = globalThis.fetch;
  let seq = 0;
  // Synchronous, so a line is on disk before the caller's code runs on.
  const record = (entry: Unnumbered<RecordedFetch>) =>
    appendFileSync(logPath, `${JSON.stringify({ seq: seq++, ...entry })}\n`);
  globalThis.fetch = async (input, init) => {
    const call = describeCall(input, init);
    record({ event: 'sent', atMs: Date.now(), ...call });
    const response = await realFetch(input, init);
    if (response.status !== 429) return response;
    const body = await response.text();
    const waitSeconds = advertisedWaitSeconds(response.headers, body);
    record({ event: 'rate-limited', atMs: Date.now(), ...call, waitSeconds });
    // From here to the plugin's gate closing, only promise callbacks run: no timer, no other send.
    return new Response(body, { status: 429, statusText: response.statusText, headers: response.headers });
  };
}

const logPath = process.env[FETCH_LOG_VARIABLE];
if (logPath) install(logPath);
