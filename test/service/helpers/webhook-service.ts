import { expect } from 'vitest';
import type { Logger } from '../../../src/ports/logger.js';
import {
  type RunningService,
  type ServiceOptions,
  type ServiceSeed,
  startService,
} from '../../../src/service/index.js';
import { seededRandom } from '../../support/fault-plan.js';
import { ADMIN_TOKEN, KEY_A1, NOTCH, testSeed } from './fixture.js';

export { within } from './within.js';

/** Every line the service logged, as JSON text, so a test can look for what must never appear. */
export function recordingLogger(lines: string[], onLine: (line: string) => void = () => {}): Logger {
  const record = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    const line = JSON.stringify({ level, message, fields });
    lines.push(line);
    onLine(line);
  };
  return { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}

export interface WebhookTestService {
  service: RunningService;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  admin(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A real service on a loopback port with the test seed plus `webhooks` for network alpha, the
 * system clock and timers, and short retry delays; `run` keeps ids unique across restarts. The
 * receivers listen on 127.0.0.1, so private destinations are allowed unless `options` says otherwise.
 */
export async function startWebhookService(
  webhooks: Record<string, unknown>[],
  logLines: string[],
  run: string,
  options: ServiceOptions = {},
): Promise<WebhookTestService> {
  const seed = testSeed();
  seed.networks[0]!.webhooks = webhooks as ServiceSeed['networks'][number]['webhooks'];
  let next = 0;
  const service = await startService({
    port: 0,
    seed,
    adminToken: ADMIN_TOKEN,
    ids: () => `${run}-${++next}`,
    webhookRetryBaseMs: 20,
    webhookRetryMaxMs: 200,
    random: seededRandom(7),
    logger: recordingLogger(logLines),
    webhooksAllowPrivate: true,
    ...options,
  });
  const send = (url: string, method: string, headers: Record<string, string>, body?: unknown) =>
    fetch(url, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    service,
    call: (method, path, body) => send(`${service.url}/v1/minecraft${path}`, method, { 'x-api-key': KEY_A1 }, body),
    admin: (method, path, body) =>
      send(`${service.url}/admin/v1${path}`, method, { authorization: `Bearer ${ADMIN_TOKEN}` }, body),
    close: () => service.close(),
  };
}

/** Mutes Notch for a minute (Chat Abuse) through `service`, with `reason`. */
export async function punishNotch(service: WebhookTestService, reason: string): Promise<void> {
  const response = await service.call('POST', '/punishments/dynamic', {
    targetUuid: NOTCH,
    typeOrdinal: 6,
    issuerName: 'Mod',
    reason,
    duration: 60_000,
  });
  expect(response.status).toBe(200);
}
