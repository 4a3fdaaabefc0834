import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { embeddedServicePath, readEmbeddedService, writeEmbeddedService } from '../connection/embedded-service.js';
import { type RunningService, type ServiceOptions, startService } from '../service/index.js';
import { commandName } from './command-name.js';

const DEMO_NETWORK = 'demo';

/** The port of a recorded service URL; 0 (any free port) when there is none. */
export function portOf(url: string | undefined): number {
  if (!url) return 0;
  try {
    return Number(new URL(url).port) || 0;
  } catch {
    return 0;
  }
}

/** Starts on `port`; when another process holds it, on any free port instead. */
async function startOnPortOrAnother(
  options: ServiceOptions,
  port: number,
): Promise<{ service: RunningService; movedFrom?: number }> {
  try {
    return { service: await startService({ ...options, port }) };
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return { service: await startService({ ...options, port: 0 }), movedFrom: port };
  }
}

/**
 * Starts the reference service in-process with a demo network. Reuses the key, token and port of
 * earlier runs, so a URL the owner kept (a panel, a second server) still works after a restart.
 * Prints the key and token at the first start only.
 */
export async function startEmbeddedService(dataFolder: string, stdout: NodeJS.WritableStream) {
  const previous = readEmbeddedService(dataFolder);
  const apiKey = previous?.apiKey ?? `bailiff-demo-${randomBytes(18).toString('base64url')}`;
  const adminToken = previous?.adminToken ?? randomBytes(24).toString('base64url');
  const platform = previous?.platform ?? 'minecraft';
  const dbPath = join(dataFolder, 'embedded-service.db');
  const { service, movedFrom } = await startOnPortOrAnother(
    {
      host: '127.0.0.1',
      dbPath,
      platform,
      adminToken,
      seed: {
        networks: [
          { name: DEMO_NETWORK, servers: [{ name: 'local', apiKey }], players: [], tickets: [], punishments: [] },
        ],
      },
    },
    portOf(previous?.url),
  );
  writeEmbeddedService(dataFolder, { url: service.url, apiKey, adminToken, network: DEMO_NETWORK, platform });
  const stored = embeddedServicePath(dataFolder);
  // The key and token are shown once, when they are made: later starts say where they are, so
  // they do not end up in every captured console log.
  const secrets =
    previous === undefined
      ? [
          `  API key:     ${apiKey}`,
          `  admin token: ${adminToken}`,
          `  (stored in ${stored}, readable by this user only)`,
        ]
      : [`  API key and admin token: in ${stored}`];
  stdout.write(
    [
      ...(movedFrom === undefined ? [] : [`port ${movedFrom} of the last run is in use by another program`]),
      `embedded moderation service on ${service.url} (network "${DEMO_NETWORK}")`,
      ...secrets,
      `  moderation panel: ${service.url}/panel/`,
      `  (first panel admin: ${commandName()} service create-admin --db ${dbPath} --network ${DEMO_NETWORK} --user NAME)`,
      '',
    ].join('\n'),
  );
  return service;
}
