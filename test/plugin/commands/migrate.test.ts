import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bailiffCommand } from '../../../plugin/commands/bailiff.js';
import type { MigrationProgressBody } from '../../../src/contract/schemas.js';
import { plain, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

let serverFolder: string;
let deps: TestDeps | undefined;

beforeEach(() => {
  serverFolder = mkdtempSync(join(tmpdir(), 'bailiff-migrate-cmd-'));
});
afterEach(async () => {
  await deps?.outbox.stop();
  deps?.db.close();
  deps = undefined;
  rmSync(serverFolder, { recursive: true, force: true });
});

function writeVanillaBans(): void {
  const bans = [
    {
      uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
      name: 'Steve',
      created: '2024-01-31 12:00:00 +0000',
      source: 'Admin',
      expires: 'forever',
      reason: 'x-ray',
    },
    {
      uuid: '853c80ef-3c37-49fd-aa49-938b674adae6',
      name: 'Alex',
      created: '2024-01-01 12:00:00 +0000',
      source: 'Server',
      expires: '2024-01-02 12:00:00 +0000',
      reason: 'spam',
    },
  ];
  writeFileSync(join(serverFolder, 'banned-players.json'), JSON.stringify(bans));
  writeFileSync(
    join(serverFolder, 'banned-ips.json'),
    JSON.stringify([
      { ip: '10.0.0.1', created: '2024-01-31 12:00:00 +0000', source: 'Admin', expires: 'forever', reason: 'bots' },
    ]),
  );
}

const migrationsFolder = () => join(serverFolder, 'plugin-data', 'Bailiff', 'migrations');

/** Deps whose started outbox delivers progress calls to the fake API. */
function migrationDeps(
  upload: (...args: unknown[]) => Promise<{ success: boolean; message: string; fileSize: number }>,
): TestDeps {
  const created = testDeps({
    api: { uploadMigration: upload, migrationProgress: async () => ({ success: true }) },
    overrides: { serverFolder, migrationsFolder: migrationsFolder() },
  });
  created.outbox.start();
  return created;
}

async function run(args: string[]) {
  const sender = fakeSender({ kind: 'console' });
  await bailiffCommand(deps!).execute({ sender, label: 'bailiff', args });
  return sender;
}

describe('/bailiff migrate', () => {
  it('exports the vanilla bans, uploads them and tells the progress and summary in chat', async () => {
    writeVanillaBans();
    deps = migrationDeps(async () => ({ success: true, message: 'Migration file received', fileSize: 1 }));

    const sender = await run(['migrate', 'vanilla']);

    const seen = plain(sender.messages);
    expect(seen[0]).toBe(`Migrating vanilla punishments from ${serverFolder}...`);
    expect(seen).toContain('Migration building_json: 0/3 entries (0%)');
    expect(seen).toContain('Migration building_json: 3/3 entries (100%)');
    expect(seen.some((line) => line.startsWith('Migration uploading_json:') && line.endsWith('(attempt 1)'))).toBe(
      true,
    );
    expect(seen.slice(-2)).toEqual([
      'Migration uploaded: 2 players, 2 punishments, 1 entries skipped. Migration file received',
      '  1 skipped: IP ban (banned-ips.json): no player to attach it to',
    ]);

    const uploads = deps.client.calls.filter((call) => call.method === 'uploadMigration');
    expect(uploads).toHaveLength(1);
    const statuses = deps.client.calls
      .filter((call) => call.method === 'migrationProgress')
      .map((call) => (call.args[0] as MigrationProgressBody).status);
    expect(statuses[0]).toBe('building_json');
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses.indexOf('uploading_json')).toBeGreaterThan(statuses.lastIndexOf('building_json'));
    // The active ban goes through the apply path at once, as the service will list it once imported.
    expect(deps.applied).toEqual([
      expect.objectContaining({
        targetUuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5',
        targetName: 'Steve',
        typeOrdinal: 2,
        reason: 'x-ray',
        duration: -1,
        status: 'active',
        started: '2024-01-31T12:00:00.000Z',
      }),
    ]);
  });

  it('explains a missing source file without a stack trace', async () => {
    deps = migrationDeps(async () => ({ success: true, message: 'unused', fileSize: 1 }));
    const sender = await run(['migrate', 'vanilla']);
    expect(plain(sender.messages).at(-1)).toBe(
      `Migration failed: banned-players.json not found in ${serverFolder} (expected the server folder)`,
    );
    expect(deps.client.calls.some((call) => call.method === 'uploadMigration')).toBe(false);
  });

  it('tells the sender when the service refuses the upload', async () => {
    writeVanillaBans();
    deps = migrationDeps(() =>
      Promise.reject(apiError('http', 'uploadMigration', { status: 413, serviceMessage: 'file too large' })),
    );
    const sender = await run(['migrate', 'vanilla']);
    expect(plain(sender.messages).at(-1)).toMatch(
      /^Migration failed: The migration file .* is larger than the service accepts \(413\)/,
    );
    expect(existsSync(join(tmpdir(), 'bailiff-migration-vanilla-id-1.json'))).toBe(false);
    expect(readdirSync(migrationsFolder())).toEqual([]);
  });

  it('writes the file in the plugin data folder while uploading, then removes it and any leftover', async () => {
    writeVanillaBans();
    mkdirSync(migrationsFolder(), { recursive: true });
    const leftover = join(migrationsFolder(), 'bailiff-migration-vanilla-crashed.json');
    writeFileSync(leftover, '{"players":[');
    const uploaded: Array<{ path: string; players: number }> = [];
    deps = migrationDeps(async (...args: unknown[]) => {
      const path = (args[0] as { filePath: string }).filePath;
      uploaded.push({
        path,
        players: (JSON.parse(readFileSync(path, 'utf8')) as { players: unknown[] }).players.length,
      });
      return { success: true, message: 'Migration file received', fileSize: 1 };
    });

    await run(['migrate', 'vanilla']);

    expect(uploaded).toEqual([{ path: join(migrationsFolder(), 'bailiff-migration-vanilla-id-1.json'), players: 2 }]);
    expect(readdirSync(migrationsFolder())).toEqual([]);
    expect(existsSync(leftover)).toBe(false);
  });
});
