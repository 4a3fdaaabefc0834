import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '../../src/contract/schemas.js';
import type { Logger } from '../../src/ports/logger.js';
import { type OtherSqliteConnection, openOtherSqliteConnection } from '../support/sqlite-other-connection.js';
import { KEY_A1, startTestService, type TestService } from './helpers/fixture.js';
import { rawRequest } from './helpers/raw-http.js';
import { firstFrames } from './helpers/stream-client.js';

// A failure inside the stream's upgrade handler is a 500 in the error shape, logged; the process lives on.
const errors: { message: string; fields?: Record<string, unknown> }[] = [];
const logger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: (message, fields) => errors.push({ message, fields }),
};

let directory: string;
let t: TestService;
let saboteur: OtherSqliteConnection;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bailiff-guards-'));
  const dbPath = join(directory, 'service.db');
  t = await startTestService({ dbPath, logger });
  saboteur = openOtherSqliteConnection(dbPath);
});
afterAll(async () => {
  await saboteur?.close();
  await t?.close();
  await rm(directory, { recursive: true, force: true });
});

const handshake =
  `GET /v1/minecraft/stream HTTP/1.1\r\nHost: a\r\nX-API-Key: ${KEY_A1}\r\nUpgrade: websocket\r\n` +
  'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

describe('top-level guards', () => {
  it('an upgrade whose key lookup fails answers 500 in the error shape, is logged, and the stream recovers', async () => {
    await saboteur.exec('ALTER TABLE service_servers RENAME TO service_servers_gone');
    let response: Awaited<ReturnType<typeof rawRequest>>;
    try {
      response = await rawRequest(t.service.port, handshake);
    } finally {
      await saboteur.exec('ALTER TABLE service_servers_gone RENAME TO service_servers');
    }
    expect(response.status).toBe(500);
    expect(errorBody.parse(JSON.parse(response.body))).toMatchObject({ status: 500, message: 'internal server error' });
    expect(response.body).not.toContain('service_servers');
    expect(errors.map((entry) => entry.message)).toContain('stream upgrade failed');
    expect(JSON.stringify(errors)).not.toContain(KEY_A1);

    const [hello] = await firstFrames(t.service.url, KEY_A1);
    expect(hello).toEqual({ type: 'hello', protocol: 1 });
  });
});
