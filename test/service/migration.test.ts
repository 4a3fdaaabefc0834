import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationUploadResponse, recentResponse } from '../../src/contract/schemas.js';
import { errorOf, JEB, KEY_A1, NOTCH, START_MS, startTestService, type TestService } from './helpers/fixture.js';

const NEW_PLAYER = '4566e69f-c907-48ee-8d71-d7ba5aa00d20';
let t: TestService;
let small: TestService;
beforeAll(async () => {
  t = await startTestService();
  small = await startTestService({ maxUploadMb: 0.001 });
});
afterAll(async () => {
  await t.close();
  await small.close();
});

function upload(service: TestService, content: string, field = 'migrationFile') {
  const form = new FormData();
  form.append(field, new Blob([content], { type: 'application/json' }), 'export.json');
  return fetch(`${service.base}/migration/upload`, { method: 'POST', body: form, headers: { 'x-api-key': KEY_A1 } });
}

async function waitForUploads(service: TestService, count: number) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const body = (await (await service.admin('GET', '/networks/alpha/migrations')).json()) as {
      migrations: { status: string; processed: number; total: number; message: string }[];
    };
    if (body.migrations.length >= count && body.migrations.every((m) => m.status !== 'processing'))
      return body.migrations;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('imports did not finish within 5 s');
}

const exportFile = JSON.stringify({
  players: [
    {
      minecraftUuid: NEW_PLAYER,
      usernames: [
        { username: 'OldName', date: '2025-01-01T00:00:00Z' },
        { username: 'NewName', date: START_MS - 10_000 },
      ],
      punishments: [
        {
          id: 'm-1',
          typeOrdinal: 2,
          reason: 'xray',
          issued: START_MS - 3_600_000,
          issuerName: 'Admin',
          duration: -1,
          active: true,
        },
        {
          id: 'm-2',
          typeOrdinal: 6,
          reason: 'spam',
          issued: '2025-06-01T00:00:00Z',
          duration: 3_600_000,
          active: false,
        },
      ],
    },
    {
      minecraftUuid: JEB,
      usernames: [],
      punishments: [{ id: 'm-1', typeOrdinal: 2, issued: START_MS, duration: -1, active: true }],
    },
    { minecraftUuid: 'not-a-uuid', usernames: [], punishments: [] },
  ],
});

describe('migration upload', () => {
  it('imports a valid file in the background: players, punishments, ids de-duplicated', async () => {
    const response = await upload(t, exportFile);
    expect(response.status).toBe(200);
    const body = migrationUploadResponse.parse(await response.json());
    expect(body).toMatchObject({ success: true, fileSize: Buffer.byteLength(exportFile) });

    const [record] = await waitForUploads(t, 1);
    expect(record).toMatchObject({ status: 'completed', processed: 3, total: 3 });
    expect(record!.message).toBe('imported 2 players and 2 punishments (1 already known, 1 invalid records skipped)');

    const recent = recentResponse.parse(await (await t.call('GET', '/punishments/recent?hours=24')).json());
    expect(recent.punishments.find((p) => p.id === 'm-1')).toMatchObject({
      targetUuid: NEW_PLAYER,
      targetName: 'NewName',
      issuerName: 'Admin',
      status: 'active',
      reason: 'xray',
    });
    const admin = (await (await t.admin('GET', '/networks/alpha/punishments/m-2')).json()) as {
      punishment: { status: string };
    };
    expect(admin.punishment.status).toBe('expired');
    // The imported player can now be punished through the contract.
    const create = await t.call('POST', '/punishments/create', { targetUuid: NEW_PLAYER, type_ordinal: 0 });
    expect(create.status).toBe(200);
  });

  it('imports the same file twice without duplicating anything', async () => {
    expect((await upload(t, exportFile)).status).toBe(200);
    const records = await waitForUploads(t, 2);
    expect(records[0]!.message).toBe(
      'imported 2 players and 0 punishments (3 already known, 1 invalid records skipped)',
    );
  });

  it.each([
    ['{"players": [', 'migrationFile: not valid JSON'],
    ['hello', 'migrationFile: not valid JSON'],
    ['{"users": []}', 'migrationFile: players is required (an array of players)'],
    ['{"players": {}}', 'migrationFile: players must be an array'],
    ['[1, 2]', 'migrationFile: must be a JSON object with a "players" array'],
    ['{"players": [1]}', 'migrationFile: players[0] must be an object'],
  ])('answers 400 for %s', async (content, message) => {
    const response = await upload(t, content);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message.startsWith(message)).toBe(true);
  });

  it('answers 400 when the file is not in the migrationFile field, or the body is not multipart', async () => {
    const wrongField = await upload(t, exportFile, 'file');
    expect((await errorOf(wrongField)).message).toBe("migrationFile: is required (received a file in field 'file')");
    const json = await t.call('POST', '/migration/upload', { players: [] });
    expect((await errorOf(json)).message).toBe('body: must be multipart/form-data with a migrationFile file');
  });

  it('answers 413 for a file over the limit, cut off while streaming, and records no upload', async () => {
    const big = JSON.stringify({ players: Array.from({ length: 200 }, () => ({ minecraftUuid: NOTCH })) });
    const response = await upload(small, big);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).message).toBe('migrationFile: larger than the upload limit of 1048 bytes');
    const list = (await (await small.admin('GET', '/networks/alpha/migrations')).json()) as { migrations: unknown[] };
    expect(list.migrations).toEqual([]);
    // A file under the limit still goes through.
    expect((await upload(small, '{"players": []}')).status).toBe(200);
  });

  it('records progress reports, visible to the admin', async () => {
    const report = { status: 'uploading_json', message: 'sending', processed: 1, total: 2 };
    expect((await t.call('POST', '/migration/progress', report)).status).toBe(200);
    const list = (await (await t.admin('GET', '/networks/alpha/migrations')).json()) as { progressReports: unknown[] };
    expect(list.progressReports[0]).toMatchObject({ ...report, server: 'survival' });
  });
});
