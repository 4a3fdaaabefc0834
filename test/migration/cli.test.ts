import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/db/open-db.js';
import { startService } from '../../src/service/index.js';
import { makeTempDir, uuidOf, vanillaEntry, writeBannedIps, writeBannedPlayers } from './helpers/fixtures.js';
import { BUILT_CLI as CLI, killRunningClis, runCli } from './helpers/run-cli.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  ({ dir, cleanup } = await makeTempDir());
});
afterAll(async () => {
  killRunningClis();
  await cleanup?.();
});

describe('bailiff migrate (built CLI)', () => {
  it('--dry-run writes the file, prints plain progress lines and the summary, exits 0', async () => {
    const created = Date.now() - 3_600_000;
    await writeBannedPlayers(dir, [vanillaEntry(1, created), vanillaEntry(2, created), { uuid: uuidOf(3), name: 'x' }]);
    await writeBannedIps(dir, ['10.0.0.1'], created);
    const result = await runCli(['migrate', '--from', 'vanilla', '--dir', '.', '--dry-run', '--out', 'out.json'], dir);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('building_json: 0/4 entries (0%)');
    expect(result.stdout).toContain('building_json: 4/4 entries (100%)');
    expect(result.stdout).toContain('Migration file written (dry run, nothing uploaded)');
    expect(result.stdout).toMatch(/players: +2\n/);
    expect(result.stdout).toMatch(/skipped: +2\n/);
    expect(result.stdout).toContain(
      '1 x IP ban (banned-ips.json): no player to attach it to (e.g. banned-ips.json entry #1)',
    );
    expect(result.stdout).toContain('1 x unreadable "created" date (e.g. banned-players.json entry #3)');
    const file = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { players: unknown[] };
    expect(file.players).toHaveLength(2);
  });

  it('exits 2 with the problem and the usage for a bad flag', async () => {
    const result = await runCli(['migrate', '--from', 'mybans', '--dir', '.'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--from: expected vanilla, essentials, json, litebans, libertybans, advancedban, banmanager, received "mybans"',
    );
    expect(result.stderr).toContain('usage: bailiff migrate');
  });

  it('exits 2 when no service is configured and it is not a dry run', async () => {
    const result = await runCli(['migrate', '--from', 'vanilla', '--dir', '.'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'no moderation service is configured: set api.baseUrl and api.key in config.yml (or BAILIFF_API_URL and BAILIFF_API_KEY)',
    );
  });

  it('exits 1 with a message naming the file and entry for malformed input', async () => {
    await writeBannedPlayers(dir, '[{"uuid": "a"}, {"uuid": }]');
    const result = await runCli(['migrate', '--from', 'vanilla', '--dir', '.', '--dry-run', '--out', 'bad.json'], dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bailiff migrate: banned-players\.json is not valid JSON: entry #2: /);
    expect(existsSync(join(dir, 'bad.json'))).toBe(false);
  });

  it('uploads to a running service, drains the progress through its outbox and prints the answer', async () => {
    const created = Date.now() - 3_600_000;
    await writeBannedPlayers(dir, [vanillaEntry(1, created), vanillaEntry(2, created)]);
    await writeBannedIps(dir, [], created);
    const service = await startService({
      port: 0,
      adminToken: 'cli-test-admin-token-0001',
      seed: { networks: [{ name: 'net', servers: [{ name: 'hub', apiKey: 'cli-test-server-key-00001' }] }] },
    });
    try {
      const args = [
        'migrate',
        '--from',
        'vanilla',
        '--dir',
        '.',
        '--api-url',
        service.url,
        '--api-key',
        'cli-test-server-key-00001',
      ];
      const result = await runCli([...args, '--db', 'plugin/bailiff.db', '--out', 'upload.json'], dir);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('uploading_json: ');
      expect(result.stdout).toMatch(/service: +.*accepted/);
      expect(result.stdout).not.toContain('cli-test-server-key-00001');
      const response = await fetch(`${service.url}/admin/v1/networks/net/migrations`, {
        headers: { authorization: 'Bearer cli-test-admin-token-0001' },
      });
      const { progressReports } = (await response.json()) as { progressReports: { status: string }[] };
      // Newest first: the outbox delivered every call before the command exited.
      expect(progressReports[0]?.status).toBe('completed');
      expect(progressReports.map((report) => report.status)).toContain('uploading_json');

      // The server owning that database enforces the exported bans at once, under the imported ids.
      const file = JSON.parse(readFileSync(join(dir, 'upload.json'), 'utf8')) as {
        players: { minecraftUuid: string; punishments: { id: string; active: boolean }[] }[];
      };
      const exported = file.players.flatMap((player) =>
        player.punishments.filter((item) => item.active).map((item) => [item.id, player.minecraftUuid]),
      );
      expect(exported.length).toBeGreaterThan(0);
      const db = openDb(join(dir, 'plugin', 'bailiff.db'));
      try {
        const rows = db
          .prepare<[], { id: string; target_uuid: string; status: string }>(
            'SELECT id, target_uuid, status FROM cache_punishments ORDER BY id',
          )
          .all();
        expect(rows.map((row) => [row.id, row.target_uuid])).toEqual(exported.sort());
        expect(new Set(rows.map((row) => row.status))).toEqual(new Set(['active']));
      } finally {
        db.close();
      }
    } finally {
      await service.close();
    }
  });
});
