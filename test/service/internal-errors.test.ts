import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/ports/logger.js';
import { type OtherSqliteConnection, openOtherSqliteConnection } from '../support/sqlite-other-connection.js';
import {
  errorOf,
  KEY_A1,
  NOTCH,
  startTestService,
  type TestService,
  testSeed,
  ticketFixture,
} from './helpers/fixture.js';

// The 500 rows of the Errors table, caused by a real failure: the service runs on a SQLite file
// and a second connection renames a table from under it, so the route's statement really fails.

interface LogEntry {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

const logged: LogEntry[] = [];
const recordingLogger: Logger = {
  debug: (message, fields) => logged.push({ level: 'debug', message, fields }),
  info: (message, fields) => logged.push({ level: 'info', message, fields }),
  warn: (message, fields) => logged.push({ level: 'warn', message, fields }),
  error: (message, fields) => logged.push({ level: 'error', message, fields }),
};

let directory: string;
let dbPath: string;
let t: TestService;
let saboteur: OtherSqliteConnection;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bailiff-internal-errors-'));
  dbPath = join(directory, 'service.db');
  // The service makes its upload directory under tmpdir(); point that here to see what it leaves behind.
  const previousTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = directory;
  try {
    t = await startTestService({ dbPath, seed: seedWithTicket(), logger: recordingLogger });
  } finally {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
  }
  saboteur = openOtherSqliteConnection(dbPath);
});

afterAll(async () => {
  await saboteur?.close();
  await t?.close();
  await rm(directory, { recursive: true, force: true });
});

const TICKET_ID = 'T-1';

function seedWithTicket() {
  const seed = testSeed();
  const at = '2026-01-01T00:00:00.000Z';
  seed.networks[0]!.tickets = [ticketFixture({ id: TICKET_ID, createdAt: at, updatedAt: at })];
  return seed;
}

/** Renames `table` away while `action` runs, then puts it back. */
async function withTableMissing<T>(table: string, action: () => Promise<T>): Promise<T> {
  await saboteur.exec(`ALTER TABLE ${table} RENAME TO ${table}_gone`);
  try {
    return await action();
  } finally {
    await saboteur.exec(`ALTER TABLE ${table}_gone RENAME TO ${table}`);
  }
}

function uploadMigration(content: string) {
  const form = new FormData();
  form.append('migrationFile', new Blob([content], { type: 'application/json' }), 'export.json');
  return fetch(`${t.base}/migration/upload`, { method: 'POST', body: form, headers: { 'x-api-key': KEY_A1 } });
}

async function filesInUploadDirectory(): Promise<string[]> {
  const uploadDirectories = (await readdir(directory)).filter((name) => name.startsWith('bailiff-service-'));
  expect(uploadDirectories).toHaveLength(1);
  return readdir(join(directory, uploadDirectories[0]!));
}

interface Row {
  endpoint: string;
  table: string;
  route: string;
  send: () => Promise<Response>;
}

const rows: Row[] = [
  {
    endpoint: 'acknowledge notifications',
    table: 'service_notifications',
    route: '/v1/minecraft/notifications/acknowledge',
    send: () => t.call('POST', '/notifications/acknowledge', { playerUuid: NOTCH, notificationIds: ['n-1'] }),
  },
  {
    endpoint: 'get ticket',
    table: 'service_tickets',
    route: '/v1/minecraft/tickets/:id',
    send: () => t.call('GET', `/tickets/${TICKET_ID}`),
  },
  {
    endpoint: 'get player tickets',
    table: 'service_tickets',
    route: '/v1/minecraft/tickets/player/:uuid',
    send: () => t.call('GET', `/tickets/player/${NOTCH}`),
  },
  {
    endpoint: 'upload migration file',
    table: 'service_migration_uploads',
    route: '/v1/minecraft/migration/upload',
    send: () => uploadMigration('{"players": []}'),
  },
  {
    endpoint: 'migration progress',
    table: 'service_migration_reports',
    route: '/v1/minecraft/migration/progress',
    send: () => t.call('POST', '/migration/progress', { status: 'processing', message: 'halfway' }),
  },
];

describe('500 rows of the Errors table', () => {
  it.each(rows)('$endpoint answers 500 in the error shape when $table is gone, and recovers', async (row) => {
    const before = logged.length;
    const failed = await withTableMissing(row.table, async () => {
      const response = await row.send();
      // Other routes keep working while this table is broken.
      expect((await t.call('GET', '/punishments/types')).status).toBe(200);
      expect((await t.call('GET', '/punishments/recent')).status).toBe(200);
      return response;
    });

    expect(failed.status).toBe(500);
    const body = await errorOf(failed);
    expect(body).toEqual({ status: 500, success: false, error: 'Internal Server Error', message: expect.any(String) });
    expect(body.message.length).toBeGreaterThan(0);
    for (const internal of [row.table, 'SQLITE', 'no such table', 'SELECT', 'INSERT', 'UPDATE', KEY_A1, dbPath]) {
      expect(body.message).not.toContain(internal);
    }

    // The failure is logged with its cause, without the API key.
    const errors = logged.slice(before).filter((entry) => entry.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.fields).toMatchObject({ route: row.route, error: expect.stringContaining(row.table) });
    expect(JSON.stringify(errors)).not.toContain(KEY_A1);

    // Once the table is back the same route answers normally.
    expect((await row.send()).status).toBe(200);
  });

  it('leaves no uploaded file behind when recording the upload fails', async () => {
    // An earlier successful upload may still be importing; only a new file would be a leftover.
    const before = await filesInUploadDirectory();
    const response = await withTableMissing('service_migration_uploads', () => uploadMigration('{"players": []}'));
    expect(response.status).toBe(500);
    const after = await filesInUploadDirectory();
    expect(after.filter((name) => !before.includes(name))).toEqual([]);
  });

  it('answers 500, not 401, when the key lookup itself fails, then authenticates again', async () => {
    const response = await withTableMissing('service_servers', () => t.call('GET', '/punishments/types'));
    expect(response.status).toBe(500);
    const body = await errorOf(response);
    expect(body.error).toBe('Internal Server Error');
    expect(JSON.stringify(body)).not.toContain(KEY_A1);
    expect((await t.call('GET', '/punishments/types')).status).toBe(200);
    expect((await t.call('GET', '/punishments/types', undefined, 'not-a-key')).status).toBe(401);
  });
});
