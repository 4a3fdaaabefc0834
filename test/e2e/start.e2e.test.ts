import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGameServer, startGameServerProcess, writeTestServerFolder } from './helpers/game-server.js';
import { waitFor } from './helpers/wait.js';

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('bailiff start with the embedded service', { timeout: 60_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-start-e2e-'));
  const dataFolder = join(dir, 'plugin-data', 'Bailiff');
  let game: RunningGameServer | undefined;
  let stored: { url: string; apiKey: string; adminToken: string };

  beforeAll(async () => {
    writeTestServerFolder(dir);
    game = await startGameServerProcess(dir, { BAILIFF_API_URL: '', BAILIFF_API_KEY: '' });
    stored = JSON.parse(readFileSync(join(dataFolder, 'embedded-service.json'), 'utf8'));
  });

  afterAll(async () => {
    await game?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Types `line` at the console and resolves to what was printed after it, once `until` shows up. */
  async function consoleCommand(line: string, until: string): Promise<string> {
    const from = game!.output().length;
    game!.console(line);
    return waitFor(`"${until}" after ${line}`, () => {
      const printed = game!.output().slice(from);
      return printed.includes(until) ? printed : undefined;
    });
  }

  it('prints the service URL, demo key, admin token and listening line once each', () => {
    const output = game!.output();
    expect(occurrences(output, `embedded moderation service on ${stored.url}`)).toBe(1);
    expect(occurrences(output, `moderation panel: ${stored.url}/panel/`)).toBe(1);
    expect(occurrences(output, stored.apiKey)).toBe(1);
    expect(occurrences(output, stored.adminToken)).toBe(1);
    expect(occurrences(output, 'game server listening on')).toBe(1);
    expect(output).toMatch(/^game server listening on 127\.0\.0\.1:\d+$/m);
  });

  it.skipIf(process.platform === 'win32')('keeps the data folder 0700 and the key, config and databases 0600', () => {
    const modeOf = (file: string) => statSync(join(dataFolder, file)).mode & 0o777;
    expect(modeOf('.')).toBe(0o700);
    for (const file of ['config.yml', 'embedded-service.json', 'embedded-service.db', 'bailiff.db']) {
      expect([file, modeOf(file)]).toEqual([file, 0o600]);
    }
  });

  it('a reload with an invalid config.yml names file, key, expected and received and applies nothing', async () => {
    writeFileSync(join(dataFolder, 'messages.yml'), 'commands:\n  bailiff:\n    status-header: "Changed header"\n');
    writeFileSync(join(dataFolder, 'config.yml'), 'sync:\n  pollIntervalMs: fast\n');
    const failed = await consoleCommand('bailiff reload', 'sync.pollIntervalMs');
    expect(failed).toContain(`Reload failed, the previous settings stay in force: invalid config ${dataFolder}`);
    expect(failed).toMatch(/sync\.pollIntervalMs: expected .+, received .+/);

    // messages.yml was valid, but nothing of a failed reload applies.
    const status = await consoleCommand('bailiff status', 'Outbox:');
    expect(status).toContain('Bailiff status');
    expect(status).not.toContain('Changed header');
  });

  it('a reload names the api settings that need a restart and applies the rest', async () => {
    writeFileSync(join(dataFolder, 'config.yml'), 'api:\n  timeoutMs: 9000\n');
    const reloaded = await consoleCommand('bailiff reload', 'restart the server');
    expect(reloaded).toContain('config.yml and messages.yml reloaded.');
    expect(reloaded).toContain('api.timeoutMs changed: restart the server to use them');
    const status = await consoleCommand('bailiff status', 'Outbox:');
    expect(status).toContain('Changed header');
    expect(status).toContain('Service: reachable');
  });

  it('/history and /check without a player show their usage, and nothing vaguer', async () => {
    const history = await consoleCommand('history', 'Usage: /history <player> [page]');
    const check = await consoleCommand('check', 'Usage: /check <player>');
    expect(`${history}${check}`).not.toContain('wrong arguments');
  });

  it('stops cleanly on Ctrl-C with exit code 0', async () => {
    expect(await game!.stop('SIGINT')).toBe(0);
    expect(game!.output()).toContain('SIGINT: stopping');
    expect(game!.output()).toMatch(/^stopped$/m);
    expect(occurrences(game!.output(), stored.apiKey)).toBe(1);
  });

  it('starts the embedded service on the port of the last run again', async () => {
    game = await startGameServerProcess(dir, { BAILIFF_API_URL: '', BAILIFF_API_KEY: '' });
    expect(game.output()).toContain(`embedded moderation service on ${stored.url} `);
    // Shown at the first start only: afterwards the output says where they are.
    expect(game.output()).toContain(`API key and admin token: in ${join(dataFolder, 'embedded-service.json')}`);
    expect(game.output()).not.toContain(stored.apiKey);
    expect(game.output()).not.toContain(stored.adminToken);
    expect(JSON.parse(readFileSync(join(dataFolder, 'embedded-service.json'), 'utf8')).url).toBe(stored.url);
  });

  it("stops on the console's stop with exit code 0, without claiming a signal", async () => {
    const exited = game!.exited();
    game!.console('stop');
    expect(await exited).toBe(0);
    expect(game!.output()).toMatch(/^stopped$/m);
    expect(game!.output()).not.toMatch(/SIG(TERM|INT): stopping/);
  });
});
