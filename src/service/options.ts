import { randomBytes } from 'node:crypto';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/ids.js';
import type { Logger } from '../ports/logger.js';
import type { Random } from '../ports/random.js';
import type { Timers } from '../ports/timers.js';
import { PROXY_HEADERS, type ProxyHeader, parseTrustedProxies } from './connections/client-origin.js';
import type { ServiceContext } from './context.js';
import { DEFAULT_LIVE_CAPS, liveCapsProblem } from './panel/live-connections.js';
import type { ModerationRules } from './rules/catalogue.js';
import { weakSecretProblem } from './secret-strength.js';
import type { ServiceSeed } from './seed/seed-schema.js';
import type { HostResolver } from './webhooks/destination.js';
import type { WebhookFetch } from './webhooks/send.js';

/** How to start the reference service. */
export interface ServiceOptions {
  /** Interface to listen on. @default '127.0.0.1' */
  host?: string;
  /** TCP port; 0 picks a free one. @default 8787 */
  port?: number;
  /** SQLite file. @default ':memory:' */
  dbPath?: string;
  /**
   * A `postgres://` (or `postgresql://`) URL: the service keeps its data in that PostgreSQL
   * database instead of SQLite, and several instances started with the same URL behave as one
   * service. Not together with `dbPath`. Its password never appears in a log line or an error.
   */
  databaseUrl?: string;
  /** A seed object or the path of a seed JSON file, applied at start (idempotent). */
  seed?: ServiceSeed | string;
  /** The path segment after /v1/. @default 'minecraft' */
  platform?: string;
  /**
   * Bearer token of the admin API: at least 22 characters (32 when only hex digits), so 16 random bytes.
   * @default 32 random base64url characters, returned in {@link RunningService.adminToken}
   */
  adminToken?: string;
  /**
   * Token bucket size and refill per minute, per API key, of the routes whose 429 the contract
   * documents and of the player lookups. @default 1000
   */
  rateLimitPerMinute?: number;
  /** Limit every route, not only those whose 429 the contract documents. @default false */
  rateLimitAllRoutes?: boolean;
  /** A second token bucket per API key, spent by every other POST (creations, evidence, pardons...). @default 3000 */
  writeRateLimitPerMinute?: number;
  /**
   * Wrong API keys and admin tokens one client address may send: a burst of this many, then this
   * many a minute; beyond, every request from the address is answered 429 until it may try again.
   * @default 10
   */
  authFailuresPerMinute?: number;
  /** Players' login addresses are kept this many days after they were last seen, then deleted. @default 90 */
  addressHistoryDays?: number;
  /** Largest migration upload in MB (1 MB = 1,048,576 bytes); 413 above. @default 100 */
  maxUploadMb?: number;
  /** An address seen with more accounts than this links none of them (ban evasion). @default 5 */
  sharedIpThreshold?: number;
  /** Logins older than this many days link no accounts (ban evasion). @default 90 */
  linkExpiryDays?: number;
  /** IPv4 bans broader than this prefix are refused with a 400 (0.0.0.0/0 would refuse everyone). @default 16 */
  ipBanMinPrefixV4?: number;
  /** IPv6 bans broader than this prefix are refused with a 400. @default 48 */
  ipBanMinPrefixV6?: number;
  /** Appeals one client address may send through the panel in an hour (a burst, then evenly refilled). @default 5 */
  appealsPerHour?: number;
  /** Interval of WebSocket pings on the stream. @default 25000 */
  pingIntervalMs?: number;
  /** Largest frame a stream client may send; a bigger one closes its connection with 1009. @default 65536 */
  streamMaxFrameBytes?: number;
  /** Stream connections one server key may hold at once; the next is refused with 409. @default 3 */
  streamConnectionsPerKey?: number;
  /** Changes kept in each network's change log; a client further behind gets a snapshot. @default 100000 */
  streamRetainedChanges?: number;
  /** A stream connection whose queued data has not moved for this long is closed (1008). @default 30000 */
  streamStallTimeoutMs?: number;
  /**
   * The panel's cookies always get `Secure`, also on plain-HTTP requests: set it when the panel is
   * reached only through a proxy that terminates HTTPS. @default false (Secure on HTTPS requests)
   */
  panelSecureCookies?: boolean;
  /**
   * How long an instance holds a migration import without renewing its lease (it renews every
   * third of it); another instance, or the next start, takes over an import whose lease ran out.
   * @default 30000
   */
  migrationLeaseMs?: number;
  /** Live dashboards (`/panel/live`) one staff account may hold open at once; the next is refused with 429. @default 5 */
  panelLivePerAccount?: number;
  /** Live dashboards one network may hold open at once (429 beyond); below `panelLiveMax`. @default 50 */
  panelLivePerNetwork?: number;
  /** Live dashboards open at once in this instance, every network together (503 beyond): the last resort. @default 500 */
  panelLiveMax?: number;
  /**
   * A request's headers must arrive within this many milliseconds (of the connection, or of the
   * request's first byte on a kept-alive connection); later, it is answered 408 and closed. @default 10000
   */
  headersTimeoutMs?: number;
  /**
   * A request's body must arrive within this many milliseconds of its headers, or it is answered 408
   * and closed. A migration upload is timed by its progress instead: each such window must bring at
   * least 2048 bytes a second on average. @default 30000
   */
  bodyTimeoutMs?: number;
  /** A kept-alive connection with no request for this many milliseconds is closed. @default 5000 */
  keepAliveTimeoutMs?: number;
  /**
   * Connections one client address (an IPv6 address by its /64) may hold open at once; the next is
   * answered 429 and closed before any of it is read. A stream stops counting once its handshake is
   * done (its server key's cap holds it). @default 100
   */
  connectionsPerAddress?: number;
  /**
   * Addresses and CIDR ranges of reverse proxies whose forwarding header is believed: a request from
   * one of them counts against the client the header names (the right-most address not itself a
   * trusted proxy), for every per-client budget, and its `X-Forwarded-Proto` (or `proto=`) decides
   * whether the panel's cookies get `Secure`. @default none: every peer is the client
   */
  trustProxy?: string[];
  /** The header the trusted proxies write the client in: `x-forwarded-for` or `forwarded` (RFC 7239). @default 'x-forwarded-for' */
  trustProxyHeader?: ProxyHeader;
  /** Source of "now" for timestamps, windows and the rate limiter. @default system clock */
  clock?: Clock;
  /** Timers of background work (pruning the address history, the panel's live heartbeats, reconnecting listeners). @default system timers, unref'd */
  timers?: Timers;
  /** Timers of webhook deliveries and of the look for ended punishments. @default system timers, unref'd */
  webhookTimers?: Timers;
  /** First ceiling of a webhook delivery's backoff, doubling with each failed try. @default 2000 */
  webhookRetryBaseMs?: number;
  /** Largest ceiling of a webhook delivery's backoff. @default 600000 (10 minutes) */
  webhookRetryMaxMs?: number;
  /** A webhook request without an answer after this long is a failed try. @default 10000 */
  webhookTimeoutMs?: number;
  /** How often the service looks for temporary punishments whose time is over (`punishment.expired`). @default 30000 */
  webhookExpiryCheckMs?: number;
  /**
   * The `fetch` webhook deliveries use, in place of the guarded HTTP client (which checks every address
   * it connects to): a URL whose host is an internal IP literal is still refused, a host name is not
   * resolved. @default node's http and https with the destination rule
   */
  webhookFetch?: WebhookFetch;
  /**
   * Webhooks may go to loopback, private, link-local, unique-local, carrier-grade NAT and the other
   * internal addresses too (`--webhooks-allow-private`). @default false: the internet only
   */
  webhooksAllowPrivate?: boolean;
  /** Resolves webhook host names to every address they have. @default dns.lookup (all addresses) */
  webhookResolver?: HostResolver;
  /** Source of the jitter of webhook retries. @default Math.random */
  random?: Random;
  /** Generator of punishment, reply and upload ids. @default 10 random base64url characters */
  ids?: IdGenerator;
  /** Type catalogue, points and duration tables. @default DEFAULT_RULES (docs/contract/service-semantics.md) */
  rules?: ModerationRules;
  /** @default silent */
  logger?: Logger;
  /**
   * Login checks the service answers itself before it listens (at most for a second), for a
   * rehearsal network that is rolled back, so a restart's storm of logins meets a request path
   * already compiled (a SQLite file only; `bailiff service` answers {@link SERVICE_COMMAND_WARM_UP_CHECKS}).
   * @default 0, a cold start
   */
  warmUpChecks?: number;
  /** How long the warm-up may take at most: a start is never held up long by a busy machine. @default 1000 */
  warmUpMaxMs?: number;
  /**
   * Bearer token of `GET /metrics` (Prometheus text format) on the service's port. Without it and
   * without `metricsPort` there are no metrics. At least 22 characters, as the admin token.
   * @default none (off)
   */
  metricsToken?: string;
  /**
   * Serves `GET /metrics` on a listener of its own at this port (0 picks a free one) instead of the
   * service's port, for a scraper on a network the load balancer does not expose; `metricsToken`, if
   * given, is asked there too. @default none (off)
   */
  metricsPort?: number;
  /** Interface of the metrics listener (`metricsPort`). @default '127.0.0.1' */
  metricsHost?: string;
  /**
   * Once a drain starts (SIGTERM), the instance keeps answering requests, with `/readyz` at 503, for
   * at least this long: set it to the time the load balancer takes to see a failed `/readyz`. @default 0
   */
  drainDelayMs?: number;
  /** The longest a drain takes: requests and streams still open then are cut. @default 25000 */
  drainTimeoutMs?: number;
  /** How often the keys of open streams are looked up again, so a revoked key's streams close. @default 15000 */
  streamKeyCheckIntervalMs?: number;
  /** Maker of new server keys (CLI, admin API, panel). @default 32 random bytes as base64url */
  newServerKey?: () => string;
}

/** A started service. */
export interface RunningService {
  /** `http://HOST:PORT` with the real port. */
  url: string;
  port: number;
  adminToken: string;
  /** The running service's stores, feed and ports: for the CLI and tests that act as the panel would. */
  context: ServiceContext;
  /** `http://HOST:PORT` of the metrics listener, when `metricsPort` was given. */
  metricsUrl?: string;
  /** Stops accepting, ends streams and imports, closes the database. */
  close(): Promise<void>;
  /**
   * Shuts down gently (what SIGTERM does): `/readyz` answers 503, new streams are refused and open
   * ones closed with 1001 so their servers connect to another instance at once, requests in flight
   * are answered (each with `Connection: close`), then everything closes as {@link close} does.
   */
  drain(): Promise<void>;
}

export const DEFAULT_PORT = 8787;
/** Login checks of the start-up warm-up `bailiff service` runs (`startService` starts cold unless told). */
export const SERVICE_COMMAND_WARM_UP_CHECKS = 500;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PLATFORM = 'minecraft';
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 1000;
export const DEFAULT_WRITE_RATE_LIMIT_PER_MINUTE = 3000;
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 10;
export const DEFAULT_ADDRESS_HISTORY_DAYS = 90;
export const DEFAULT_MAX_UPLOAD_MB = 100;
export const DEFAULT_PING_INTERVAL_MS = 25_000;
export const DEFAULT_WEBHOOK_RETRY_BASE_MS = 2000;
export const DEFAULT_WEBHOOK_RETRY_MAX_MS = 600_000;
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
export const DEFAULT_WEBHOOK_EXPIRY_CHECK_MS = 30_000;
export const DEFAULT_METRICS_HOST = '127.0.0.1';
export const DEFAULT_DRAIN_DELAY_MS = 0;
export const DEFAULT_DRAIN_TIMEOUT_MS = 25_000;

export const shortRandomId: IdGenerator = () => randomBytes(8).toString('base64url').slice(0, 10);
export const randomAdminToken = () => randomBytes(24).toString('base64url');

/** Throws a message naming the option and the value received. */
export function checkOptions(options: ServiceOptions): void {
  const positiveInteger = (name: keyof ServiceOptions, min: number) => {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < min)) {
      throw new RangeError(`service option ${name}: must be an integer >= ${min}, received ${String(value)}`);
    }
  };
  const atMost = (name: 'ipBanMinPrefixV4' | 'ipBanMinPrefixV6', max: number) => {
    const value = options[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > max)) {
      throw new RangeError(`service option ${name}: must be an integer from 0 to ${max}, received ${String(value)}`);
    }
  };
  positiveInteger('port', 0);
  positiveInteger('rateLimitPerMinute', 1);
  positiveInteger('writeRateLimitPerMinute', 1);
  positiveInteger('authFailuresPerMinute', 1);
  positiveInteger('addressHistoryDays', 1);
  positiveInteger('pingIntervalMs', 1);
  positiveInteger('streamMaxFrameBytes', 1024);
  positiveInteger('streamConnectionsPerKey', 1);
  positiveInteger('streamRetainedChanges', 1);
  positiveInteger('streamStallTimeoutMs', 1);
  positiveInteger('sharedIpThreshold', 1);
  positiveInteger('linkExpiryDays', 1);
  atMost('ipBanMinPrefixV4', 32);
  atMost('ipBanMinPrefixV6', 128);
  positiveInteger('webhookRetryBaseMs', 1);
  positiveInteger('webhookRetryMaxMs', 1);
  positiveInteger('webhookTimeoutMs', 1);
  positiveInteger('webhookExpiryCheckMs', 1);
  positiveInteger('migrationLeaseMs', 100);
  positiveInteger('panelLivePerAccount', 1);
  positiveInteger('panelLivePerNetwork', 1);
  positiveInteger('panelLiveMax', 2);
  const liveProblem = liveCapsProblem({
    perAccount: options.panelLivePerAccount ?? DEFAULT_LIVE_CAPS.perAccount,
    perNetwork: options.panelLivePerNetwork ?? DEFAULT_LIVE_CAPS.perNetwork,
    total: options.panelLiveMax ?? DEFAULT_LIVE_CAPS.total,
  });
  if (liveProblem) {
    throw new RangeError(`service options panelLivePerAccount, panelLivePerNetwork, panelLiveMax: ${liveProblem}`);
  }
  positiveInteger('headersTimeoutMs', 1);
  positiveInteger('bodyTimeoutMs', 1);
  positiveInteger('keepAliveTimeoutMs', 1);
  positiveInteger('connectionsPerAddress', 1);
  positiveInteger('warmUpChecks', 0);
  positiveInteger('warmUpMaxMs', 1);
  if (options.trustProxy !== undefined) {
    if (!Array.isArray(options.trustProxy) || options.trustProxy.some((entry) => typeof entry !== 'string')) {
      throw new RangeError('service option trustProxy: must be a list of addresses or CIDR ranges');
    }
    parseTrustedProxies(options.trustProxy, 'service option trustProxy');
  }
  if (options.trustProxyHeader !== undefined && !PROXY_HEADERS.includes(options.trustProxyHeader)) {
    throw new RangeError(
      `service option trustProxyHeader: must be ${PROXY_HEADERS.join(' or ')}, received ${String(options.trustProxyHeader)}`,
    );
  }
  positiveInteger('metricsPort', 0);
  positiveInteger('drainDelayMs', 0);
  positiveInteger('drainTimeoutMs', 1);
  positiveInteger('streamKeyCheckIntervalMs', 1);
  if (options.metricsPort !== undefined && options.metricsPort > 65535) {
    throw new RangeError(`service option metricsPort: must be at most 65535, received ${options.metricsPort}`);
  }
  if (options.metricsToken !== undefined) {
    const problem =
      typeof options.metricsToken === 'string' ? weakSecretProblem(options.metricsToken) : 'must be a string';
    if (problem) throw new RangeError(`service option metricsToken: ${problem}`);
  }
  if (options.webhookFetch !== undefined && typeof options.webhookFetch !== 'function') {
    throw new RangeError(`service option webhookFetch: must be a function, received ${typeof options.webhookFetch}`);
  }
  if (options.webhooksAllowPrivate !== undefined && typeof options.webhooksAllowPrivate !== 'boolean') {
    throw new RangeError(
      `service option webhooksAllowPrivate: must be true or false, received ${String(options.webhooksAllowPrivate)}`,
    );
  }
  if (options.webhookResolver !== undefined && typeof options.webhookResolver !== 'function') {
    throw new RangeError(
      `service option webhookResolver: must be a function, received ${typeof options.webhookResolver}`,
    );
  }
  if (options.databaseUrl !== undefined) {
    if (typeof options.databaseUrl !== 'string' || !/^postgres(ql)?:\/\//.test(options.databaseUrl)) {
      // The value is not echoed: it may hold a password.
      throw new RangeError('service option databaseUrl: must be a postgres:// or postgresql:// URL');
    }
    if (options.dbPath !== undefined) {
      throw new RangeError('service option databaseUrl: give it or dbPath (a SQLite file), not both');
    }
  }
  if (options.port !== undefined && options.port > 65535) {
    throw new RangeError(`service option port: must be at most 65535, received ${options.port}`);
  }
  if (options.maxUploadMb !== undefined && !(options.maxUploadMb > 0)) {
    throw new RangeError(`service option maxUploadMb: must be a number > 0, received ${String(options.maxUploadMb)}`);
  }
  if (options.platform !== undefined && !/^[a-z0-9_-]+$/i.test(options.platform)) {
    throw new RangeError(`service option platform: must be a single path segment, received '${options.platform}'`);
  }
  if (options.adminToken !== undefined) {
    const problem = typeof options.adminToken === 'string' ? weakSecretProblem(options.adminToken) : 'must be a string';
    if (problem) throw new RangeError(`service option adminToken: ${problem}`);
  }
}
