import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Logger } from '../../ports/logger.js';
import { escapeControlCharacters } from '../../runtime/log-escape.js';
import { parseTrustedProxies } from '../../service/connections/client-origin.js';
import { SERVICE_COMMAND_WARM_UP_CHECKS } from '../../service/options.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';
import { readSecret } from '../secret-input.js';
import { ENV_DATABASE_URL } from './service-copy-to-postgres.js';

/** `--webhooks-allow-private` from the environment: 1 or true, 0 or false. */
export const ENV_WEBHOOKS_ALLOW_PRIVATE = 'BAILIFF_WEBHOOKS_ALLOW_PRIVATE';

function webhooksAllowPrivate(flag: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (flag) return true;
  const value = env[ENV_WEBHOOKS_ALLOW_PRIVATE]?.trim().toLowerCase();
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new UsageError(`${ENV_WEBHOOKS_ALLOW_PRIVATE}: must be 1, true, 0 or false, received '${value}'`);
}

/** The admin token, for deployments that keep it off the command line. */
export const ENV_ADMIN_TOKEN = 'BAILIFF_ADMIN_TOKEN';
/** The trusted proxies, comma-separated, when `--trust-proxy` is not given. */
export const ENV_TRUST_PROXY = 'BAILIFF_TRUST_PROXY';
/** The metrics scrape token, likewise. */
export const ENV_METRICS_TOKEN = 'BAILIFF_METRICS_TOKEN';

const USAGE = `usage: bailiff service [options]
       bailiff service create-admin --help   (the panel's first admin)
       bailiff service copy-to-postgres --help   (move the SQLite file's data to PostgreSQL)
       bailiff service network --help   (add and list networks)
       bailiff service server --help   (add, list and remove game servers and their keys)
       bailiff service key --help   (rotate a server's key, the old one valid for a grace period)

  --host HOST                       interface to listen on (default: 127.0.0.1)
  --port N                          TCP port, 0 for a free one (default: 8787)
  --db PATH                         SQLite file (default: in memory, lost on exit)
  --database-url URL                PostgreSQL instead of SQLite: postgres://USER:PASSWORD@HOST:PORT/DB
                                    (default: BAILIFF_DATABASE_URL); instances on one database act as one
  --seed FILE                       JSON seed: networks, servers and keys, players, tickets, punishments
  --platform NAME                   path segment after /v1/ (default: minecraft)
  --admin-token-file FILE           file holding the bearer token of /admin/v1 (default: BAILIFF_ADMIN_TOKEN,
                                    else the file BAILIFF_ADMIN_TOKEN_FILE names, else generated and printed)
  --admin-token TOKEN               the token itself (visible to other users in \`ps\`: prefer the file)
  --rate-limit-per-minute N         requests a minute per API key on limited routes (default: 1000)
  --write-rate-limit-per-minute N   writes a minute per API key (default: 3000)
  --auth-failures-per-minute N      wrong keys or admin tokens a minute per client address (default: 10)
  --appeals-per-hour N              panel appeals an hour per client address (default: 5)
  --address-history-days N          login addresses are deleted this many days after last seen (default: 90)
  --max-upload-mb N                 largest migration upload in MB (default: 100)
  --shared-ip-threshold N           an address seen with more accounts links none of them (default: 5)
  --link-expiry-days N              logins older than this link no accounts (default: 90)
  --ip-ban-min-prefix-v4 N          refuse IPv4 bans broader than this prefix (default: 16)
  --ip-ban-min-prefix-v6 N          refuse IPv6 bans broader than this prefix (default: 48)
  --stream-connections-per-key N    stream connections one server key may hold (default: 3)
  --stream-retained-changes N       changes kept per network for resuming streams (default: 100000)
  --stream-max-frame-bytes N        largest frame a stream client may send (default: 65536)
  --stream-stall-timeout-ms N       a stream reader stalled this long is closed (default: 30000)
  --panel-secure-cookies            panel cookies always Secure (the panel is reached through an HTTPS proxy)
  --panel-live-per-account N        live dashboards one staff account may hold open (default: 5)
  --panel-live-per-network N        live dashboards one network may hold open, below --panel-live-max (default: 50)
  --panel-live-max N                live dashboards open in all, every network together (default: 500)
  --headers-timeout-ms N            a request's headers must arrive within this long, else 408 (default: 10000)
  --body-timeout-ms N               a body must arrive within this long of its headers, else 408; uploads
                                    must keep moving instead (default: 30000)
  --keep-alive-timeout-ms N         an idle kept-alive connection is closed after this long (default: 5000)
  --connections-per-address N       open connections one client address may hold; the next gets 429 (default: 100)
  --trust-proxy CIDR,...            reverse proxies whose forwarding header names the client
                                    (default: BAILIFF_TRUST_PROXY, else none: every peer is the client)
  --trust-proxy-header NAME         the header they write: x-forwarded-for or forwarded (default: x-forwarded-for)
  --webhooks-allow-private          webhooks may go to loopback, private and other internal addresses
                                    (default: BAILIFF_WEBHOOKS_ALLOW_PRIVATE=1, else the internet only)
  --warm-up-checks N                login checks answered for a rehearsal before listening (1 s at most), so a
                                    restart's storm meets a warm service; 0 starts cold; a SQLite file only
                                    (default: ${SERVICE_COMMAND_WARM_UP_CHECKS})
  --metrics-token-file FILE         file holding the bearer token of GET /metrics (default: BAILIFF_METRICS_TOKEN,
                                    else the file BAILIFF_METRICS_TOKEN_FILE names; none: no /metrics on this port)
  --metrics-token TOKEN             the token itself (visible to other users in \`ps\`: prefer the file)
  --metrics-port N                  serve GET /metrics on a listener of its own at this port instead (0: a free one)
  --metrics-host HOST               interface of that listener (default: 127.0.0.1)
  --drain-delay-ms N                on SIGTERM, keep answering this long with /readyz at 503 (default: 0)
  --drain-timeout-ms N              on SIGTERM, cut what is still open after this long (default: 25000)`;

/** Stream flags and the service option each sets, with its minimum. */
const STREAM_FLAGS = [
  ['stream-connections-per-key', 'streamConnectionsPerKey', 1],
  ['stream-retained-changes', 'streamRetainedChanges', 1],
  ['stream-max-frame-bytes', 'streamMaxFrameBytes', 1024],
  ['stream-stall-timeout-ms', 'streamStallTimeoutMs', 1],
] as const;

/** Caps of the panel's live dashboards and the service option each sets, with its minimum. */
const PANEL_LIVE_FLAGS = [
  ['panel-live-per-account', 'panelLivePerAccount', 1],
  ['panel-live-per-network', 'panelLivePerNetwork', 1],
  ['panel-live-max', 'panelLiveMax', 2],
] as const;

/** Connection flags and the service option each sets, with its minimum. */
const CONNECTION_FLAGS = [
  ['headers-timeout-ms', 'headersTimeoutMs', 1],
  ['body-timeout-ms', 'bodyTimeoutMs', 1],
  ['keep-alive-timeout-ms', 'keepAliveTimeoutMs', 1],
  ['connections-per-address', 'connectionsPerAddress', 1],
] as const;

/** `--trust-proxy` (or the environment) as a list; undefined when neither names any. */
function trustedProxies(flag: string | undefined, env: NodeJS.ProcessEnv): string[] | undefined {
  const text = flag ?? env[ENV_TRUST_PROXY];
  const entries = text
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries?.length ? entries : undefined;
}

function integerFlag(name: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(`--${name}: must be an integer >= ${min}, received '${value}'`);
  }
  return Number(value);
}

function stderrLogger(stderr: NodeJS.WritableStream): Logger {
  const write = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    stderr.write(
      `bailiff service: ${level}: ${escapeControlCharacters(`${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`)}\n`,
    );
  return { debug: () => {}, info: () => {}, warn: write('warn'), error: write('error') };
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        db: { type: 'string' },
        'database-url': { type: 'string' },
        seed: { type: 'string' },
        platform: { type: 'string' },
        'admin-token': { type: 'string' },
        'admin-token-file': { type: 'string' },
        'rate-limit-per-minute': { type: 'string' },
        'write-rate-limit-per-minute': { type: 'string' },
        'auth-failures-per-minute': { type: 'string' },
        'appeals-per-hour': { type: 'string' },
        'address-history-days': { type: 'string' },
        'max-upload-mb': { type: 'string' },
        'shared-ip-threshold': { type: 'string' },
        'link-expiry-days': { type: 'string' },
        'ip-ban-min-prefix-v4': { type: 'string' },
        'ip-ban-min-prefix-v6': { type: 'string' },
        'stream-connections-per-key': { type: 'string' },
        'stream-retained-changes': { type: 'string' },
        'stream-max-frame-bytes': { type: 'string' },
        'stream-stall-timeout-ms': { type: 'string' },
        'panel-secure-cookies': { type: 'boolean' },
        'panel-live-per-account': { type: 'string' },
        'panel-live-per-network': { type: 'string' },
        'panel-live-max': { type: 'string' },
        'headers-timeout-ms': { type: 'string' },
        'body-timeout-ms': { type: 'string' },
        'keep-alive-timeout-ms': { type: 'string' },
        'connections-per-address': { type: 'string' },
        'trust-proxy': { type: 'string' },
        'trust-proxy-header': { type: 'string' },
        'webhooks-allow-private': { type: 'boolean' },
        'warm-up-checks': { type: 'string' },
        'metrics-token': { type: 'string' },
        'metrics-token-file': { type: 'string' },
        'metrics-port': { type: 'string' },
        'metrics-host': { type: 'string' },
        'drain-delay-ms': { type: 'string' },
        'drain-timeout-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${USAGE}`);
  }
}

/** `bailiff service`: runs the reference moderation service until SIGINT or SIGTERM. */
export const command: CliCommand = async (context) => {
  const { argv, stdout, stderr, cwd, env } = context;
  if (argv[0] === 'create-admin') {
    const { createAdminCommand } = await import('./service-create-admin.js');
    return createAdminCommand({ ...context, argv: argv.slice(1) });
  }
  if (argv[0] === 'copy-to-postgres') {
    const { copyToPostgresCommand } = await import('./service-copy-to-postgres.js');
    return copyToPostgresCommand({ ...context, argv: argv.slice(1) });
  }
  if (argv[0] === 'network') {
    const { networkCommand } = await import('./service-network.js');
    return networkCommand({ ...context, argv: argv.slice(1) });
  }
  if (argv[0] === 'server') {
    const { serverCommand } = await import('./service-server.js');
    return serverCommand({ ...context, argv: argv.slice(1) });
  }
  if (argv[0] === 'key') {
    const { keyCommand } = await import('./service-key.js');
    return keyCommand({ ...context, argv: argv.slice(1) });
  }
  const flags = parse(argv);
  if (flags.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  const adminToken = readSecret({
    flagName: '--admin-token',
    flagValue: flags['admin-token'],
    fileFlagName: '--admin-token-file',
    fileFlagValue: flags['admin-token-file'],
    envName: ENV_ADMIN_TOKEN,
    env,
    cwd,
  });
  const metricsToken = readSecret({
    flagName: '--metrics-token',
    flagValue: flags['metrics-token'],
    fileFlagName: '--metrics-token-file',
    fileFlagValue: flags['metrics-token-file'],
    envName: ENV_METRICS_TOKEN,
    env,
    cwd,
  });
  const metricsPort = integerFlag('metrics-port', flags['metrics-port'], 0);
  if (metricsPort !== undefined && metricsPort > 65535) {
    throw new UsageError(`--metrics-port: must be at most 65535, received '${metricsPort}'`);
  }
  const databaseUrl = flags['database-url'] ?? (flags.db === undefined ? env[ENV_DATABASE_URL] : undefined);
  if (databaseUrl !== undefined && flags.db !== undefined) {
    throw new UsageError('--database-url: give it or --db (a SQLite file), not both');
  }
  const port = integerFlag('port', flags.port, 0);
  if (port !== undefined && port > 65535) throw new UsageError(`--port: must be at most 65535, received '${port}'`);
  const maxUploadMb = flags['max-upload-mb'] === undefined ? undefined : Number(flags['max-upload-mb']);
  if (maxUploadMb !== undefined && !(maxUploadMb > 0)) {
    throw new UsageError(`--max-upload-mb: must be a number > 0, received '${flags['max-upload-mb']}'`);
  }
  const trustProxy = trustedProxies(flags['trust-proxy'], env);
  try {
    if (trustProxy)
      parseTrustedProxies(trustProxy, flags['trust-proxy'] === undefined ? ENV_TRUST_PROXY : '--trust-proxy');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const trustProxyHeader = flags['trust-proxy-header'];
  if (trustProxyHeader !== undefined && trustProxyHeader !== 'x-forwarded-for' && trustProxyHeader !== 'forwarded') {
    throw new UsageError(`--trust-proxy-header: must be x-forwarded-for or forwarded, received '${trustProxyHeader}'`);
  }
  const allowPrivateWebhooks = webhooksAllowPrivate(flags['webhooks-allow-private'], env);
  const { startService, loadSeed, SeedError } = await import('../../service/index.js');
  let seed: ReturnType<typeof loadSeed> | undefined;
  try {
    seed = flags.seed === undefined ? undefined : loadSeed(resolve(cwd, flags.seed));
  } catch (error) {
    if (error instanceof SeedError) throw new UsageError(`--seed: ${error.message}`);
    throw error;
  }
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({
      ...(flags.host === undefined ? {} : { host: flags.host }),
      ...(port === undefined ? {} : { port }),
      ...(flags.db === undefined ? {} : { dbPath: resolve(cwd, flags.db) }),
      ...(databaseUrl === undefined ? {} : { databaseUrl }),
      ...(seed === undefined ? {} : { seed }),
      ...(flags.platform === undefined ? {} : { platform: flags.platform }),
      ...(adminToken === undefined ? {} : { adminToken }),
      ...(flags['rate-limit-per-minute'] === undefined
        ? {}
        : { rateLimitPerMinute: integerFlag('rate-limit-per-minute', flags['rate-limit-per-minute'], 1)! }),
      ...(flags['write-rate-limit-per-minute'] === undefined
        ? {}
        : {
            writeRateLimitPerMinute: integerFlag(
              'write-rate-limit-per-minute',
              flags['write-rate-limit-per-minute'],
              1,
            )!,
          }),
      ...(flags['auth-failures-per-minute'] === undefined
        ? {}
        : { authFailuresPerMinute: integerFlag('auth-failures-per-minute', flags['auth-failures-per-minute'], 1)! }),
      ...(flags['appeals-per-hour'] === undefined
        ? {}
        : { appealsPerHour: integerFlag('appeals-per-hour', flags['appeals-per-hour'], 1)! }),
      ...(flags['address-history-days'] === undefined
        ? {}
        : { addressHistoryDays: integerFlag('address-history-days', flags['address-history-days'], 1)! }),
      ...(maxUploadMb === undefined ? {} : { maxUploadMb }),
      ...(flags['shared-ip-threshold'] === undefined
        ? {}
        : { sharedIpThreshold: integerFlag('shared-ip-threshold', flags['shared-ip-threshold'], 1)! }),
      ...(flags['link-expiry-days'] === undefined
        ? {}
        : { linkExpiryDays: integerFlag('link-expiry-days', flags['link-expiry-days'], 1)! }),
      ...(flags['ip-ban-min-prefix-v4'] === undefined
        ? {}
        : { ipBanMinPrefixV4: integerFlag('ip-ban-min-prefix-v4', flags['ip-ban-min-prefix-v4'], 0)! }),
      ...(flags['ip-ban-min-prefix-v6'] === undefined
        ? {}
        : { ipBanMinPrefixV6: integerFlag('ip-ban-min-prefix-v6', flags['ip-ban-min-prefix-v6'], 0)! }),
      ...Object.fromEntries(
        STREAM_FLAGS.filter(([flag]) => flags[flag] !== undefined).map(([flag, option, min]) => [
          option,
          integerFlag(flag, flags[flag], min),
        ]),
      ),
      ...(flags['panel-secure-cookies'] ? { panelSecureCookies: true } : {}),
      ...Object.fromEntries(
        PANEL_LIVE_FLAGS.filter(([flag]) => flags[flag] !== undefined).map(([flag, option, min]) => [
          option,
          integerFlag(flag, flags[flag], min),
        ]),
      ),
      ...Object.fromEntries(
        CONNECTION_FLAGS.filter(([flag]) => flags[flag] !== undefined).map(([flag, option, min]) => [
          option,
          integerFlag(flag, flags[flag], min),
        ]),
      ),
      ...(trustProxy === undefined ? {} : { trustProxy }),
      ...(trustProxyHeader === undefined ? {} : { trustProxyHeader }),
      ...(allowPrivateWebhooks ? { webhooksAllowPrivate: true } : {}),
      warmUpChecks: integerFlag('warm-up-checks', flags['warm-up-checks'], 0) ?? SERVICE_COMMAND_WARM_UP_CHECKS,
      ...(metricsToken === undefined ? {} : { metricsToken }),
      ...(metricsPort === undefined ? {} : { metricsPort }),
      ...(flags['metrics-host'] === undefined ? {} : { metricsHost: flags['metrics-host'] }),
      ...(flags['drain-delay-ms'] === undefined
        ? {}
        : { drainDelayMs: integerFlag('drain-delay-ms', flags['drain-delay-ms'], 0)! }),
      ...(flags['drain-timeout-ms'] === undefined
        ? {}
        : { drainTimeoutMs: integerFlag('drain-timeout-ms', flags['drain-timeout-ms'], 1)! }),
      logger: stderrLogger(stderr),
    });
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    if (error instanceof SeedError) throw new UsageError(`--seed: ${error.message}`);
    throw error;
  }
  stdout.write(`listening on ${service.url}\n`);
  if (adminToken === undefined) stdout.write(`admin token: ${service.adminToken}\n`);
  stdout.write(`moderation panel: ${service.url}/panel/\n`);
  if (service.metricsUrl) stdout.write(`metrics: ${service.metricsUrl}/metrics\n`);
  // The first SIGTERM or SIGINT drains (readyz 503, streams closed with 1001, requests answered); a second one cuts it short.
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      const cut = () => void service.close();
      process.once('SIGINT', cut);
      process.once('SIGTERM', cut);
      void service.drain().finally(() => {
        process.off('SIGINT', cut);
        process.off('SIGTERM', cut);
        done();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await service.close();
  return 0;
};
