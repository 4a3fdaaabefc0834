import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, errorOf, KEY_A1, startTestService, type TestService } from './helpers/fixture.js';

// Issue 23, point 5: only the file part of a migration upload is read; other parts are bounded and refused.
let directory: string;
let t: TestService;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'bailiff-upload-limits-'));
  // The service makes its upload directory under tmpdir(); point that here to see what it leaves behind.
  const previousTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = directory;
  try {
    t = await startTestService();
  } finally {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
  }
});

afterAll(async () => {
  await t?.close();
  await rm(directory, { recursive: true, force: true });
});

const EXPORT = '{"players": []}';
const file = () => new Blob([EXPORT], { type: 'application/json' });

function upload(build: (form: FormData) => void) {
  const form = new FormData();
  build(form);
  return fetch(`${t.base}/migration/upload`, { method: 'POST', body: form, headers: { 'x-api-key': KEY_A1 } });
}

async function leftovers() {
  const [uploadDirectory] = (await readdir(directory)).filter((name) => name.startsWith('bailiff-service-'));
  const files = await readdir(join(directory, uploadDirectory!));
  const list = (await (await t.admin('GET', '/networks/alpha/migrations', undefined, ADMIN_TOKEN)).json()) as {
    migrations: unknown[];
  };
  return { files, uploads: list.migrations.length };
}

describe('migration upload parts', () => {
  it.each([
    [
      'nine fields before the file',
      (form: FormData) => {
        for (let index = 0; index < 9; index += 1) form.append(`note${index}`, 'x');
        form.append('migrationFile', file(), 'export.json');
      },
      'body: more than 8 non-file fields (the upload limit); send only the migrationFile file',
    ],
    [
      'a field of 2 KiB',
      (form: FormData) => {
        form.append('note', 'x'.repeat(2048));
        form.append('migrationFile', file(), 'export.json');
      },
      'note: a non-file field larger than 1024 bytes (the upload limit); send only the migrationFile file',
    ],
    [
      'nine fields after the file',
      (form: FormData) => {
        form.append('migrationFile', file(), 'export.json');
        for (let index = 0; index < 9; index += 1) form.append(`note${index}`, 'x');
      },
      // The tenth part of the body reaches the parts limit first.
      'body: more than 9 parts (the upload limit); send only the migrationFile file',
    ],
    [
      'a second file',
      (form: FormData) => {
        form.append('migrationFile', file(), 'export.json');
        form.append('other', file(), 'other.json');
      },
      'body: more than one file (the upload limit); send only the migrationFile file',
    ],
  ])('%s: 413 naming the limit, no upload recorded, no file left behind', async (_name, build, message) => {
    const response = await upload(build);
    expect(response.status).toBe(413);
    expect((await errorOf(response)).message).toBe(message);
    expect(await leftovers()).toEqual({ files: [], uploads: 0 });
  });

  it('a few small fields beside the file are ignored and the upload goes through', async () => {
    const response = await upload((form) => {
      form.append('source', 'vanilla');
      form.append('migrationFile', file(), 'export.json');
      form.append('comment', 'x'.repeat(1024));
    });
    expect(response.status).toBe(200);
  });
});
