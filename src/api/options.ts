import { createError } from '../errors/create-error.js';
import { type Clock, systemClock } from '../ports/clock.js';
import { systemTimers, type Timers } from '../ports/timers.js';
import { ExtensionSupport } from './extension-support.js';
import { RateLimitGate } from './rate-limit-gate.js';

/** A `fetch` as the client calls it; the global one by default. */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

export interface ModerationClientOptions {
  /** Where the service lives, e.g. `http://127.0.0.1:8787`; a trailing slash is tolerated. */
  baseUrl: string;
  /** Sent as `X-API-Key` on every call. Never logged, never part of an error. */
  apiKey: string;
  /**
   * Path segment of the game platform: calls go to `{baseUrl}/v1/{platform}/...`.
   * @default 'minecraft'
   */
  platform?: string;
  /**
   * Time limit of one call in milliseconds, from sending to the end of the response body.
   * @default 10000
   */
  timeoutMs?: number;
  /** @default globalThis.fetch */
  fetch?: FetchFunction;
  /** Reads "now" to turn an HTTP-date `Retry-After` into a delay. @default systemClock */
  clock?: Clock;
  /** Arms the per-call time limit and waits for the request budget. @default systemTimers */
  timers?: Timers;
  /**
   * The door every request passes: share one between every client of the same service and key.
   * @default a gate of this client's own, without a request budget
   */
  gate?: RateLimitGate;
  /** What is known of the routes beyond the contract; fed by every answer. @default in memory, asked again after 10 min */
  extensions?: ExtensionSupport;
}

export const DEFAULT_PLATFORM = 'minecraft';
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface ResolvedClientOptions {
  /** Base URL without trailing slashes. */
  baseUrl: string;
  apiKey: string;
  platform: string;
  timeoutMs: number;
  fetch: FetchFunction;
  clock: Clock;
  timers: Timers;
  gate: RateLimitGate;
  extensions: ExtensionSupport;
}

export const DEFAULT_REPROBE_AFTER_MS = 600_000;

/** A bad option given to {@link createModerationClient}; names the option and what it received. */
export class ClientOptionsError extends createError('BAILIFF_API_INVALID_OPTION', 'ClientOptionsError', TypeError) {
  constructor(
    readonly option: string,
    readonly problem: string,
  ) {
    super(`Invalid moderation client option "${option}": ${problem}`);
  }
}

/** `"text"`, `42`, `undefined`, `a function`: what a person needs to recognise the value. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}...` : value);
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

const PLATFORM_PATTERN = /^[a-z0-9][a-z0-9_-]*$/i;

function checkBaseUrl(value: unknown): string {
  const problem = 'expected an http(s) URL such as http://127.0.0.1:8787';
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw new ClientOptionsError('baseUrl', `${problem}, received ${describeValue(value)}`);
  }
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ClientOptionsError('baseUrl', `${problem}, received ${describeValue(value)}`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ClientOptionsError('baseUrl', `must not carry a query or fragment, received ${describeValue(value)}`);
  }
  return value.replace(/\/+$/, '');
}

function checkApiKey(value: unknown): string {
  // The received value is described by its type only: it may be a real key.
  if (typeof value !== 'string') throw new ClientOptionsError('apiKey', `expected a string, received ${typeof value}`);
  if (value.trim() === '') throw new ClientOptionsError('apiKey', 'expected a non-empty string, received a blank one');
  if (/[\r\n]/.test(value)) throw new ClientOptionsError('apiKey', 'must not contain line breaks');
  return value;
}

export function checkTimeoutMs(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new ClientOptionsError(option, `expected a number of milliseconds > 0, received ${describeValue(value)}`);
  }
  return value;
}

function checkFunctions<T>(option: string, value: unknown, methods: string[]): T {
  const record = value as Record<string, unknown> | null;
  if (typeof value !== 'object' || record === null || methods.some((name) => typeof record[name] !== 'function')) {
    throw new ClientOptionsError(
      option,
      `expected an object with ${methods.join(', ')}(), received ${describeValue(value)}`,
    );
  }
  return value as T;
}

/** Checks every option and fills in the defaults; throws {@link ClientOptionsError}, never echoing the key. */
export function resolveClientOptions(options: ModerationClientOptions): ResolvedClientOptions {
  try {
    return checkOptions(options);
  } catch (error) {
    const key = (options as Partial<ModerationClientOptions> | null)?.apiKey;
    // A key pasted into the wrong option (say baseUrl) must not come back in the message.
    if (error instanceof ClientOptionsError && typeof key === 'string' && key !== '' && error.message.includes(key)) {
      throw new ClientOptionsError(error.option, error.problem.replaceAll(key, '[redacted]'));
    }
    throw error;
  }
}

function checkOptions(options: ModerationClientOptions): ResolvedClientOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ClientOptionsError('options', `expected an object, received ${describeValue(options)}`);
  }
  const apiKey = checkApiKey(options.apiKey);
  const platform = options.platform ?? DEFAULT_PLATFORM;
  if (typeof platform !== 'string' || !PLATFORM_PATTERN.test(platform)) {
    throw new ClientOptionsError(
      'platform',
      `expected a path segment like "minecraft", received ${describeValue(platform)}`,
    );
  }
  const fetchFunction = options.fetch ?? (globalThis.fetch as FetchFunction | undefined);
  if (typeof fetchFunction !== 'function') {
    throw new ClientOptionsError('fetch', `expected a function, received ${describeValue(fetchFunction)}`);
  }
  return {
    baseUrl: checkBaseUrl(options.baseUrl),
    apiKey,
    platform,
    timeoutMs: checkTimeoutMs('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    fetch: fetchFunction,
    clock: checkFunctions<Clock>('clock', options.clock ?? systemClock, ['now']),
    timers: checkFunctions<Timers>('timers', options.timers ?? systemTimers, ['setTimeout', 'clearTimeout']),
    gate: options.gate ?? new RateLimitGate(),
    extensions: options.extensions ?? new ExtensionSupport({ reprobeAfterMs: DEFAULT_REPROBE_AFTER_MS }),
  };
}
