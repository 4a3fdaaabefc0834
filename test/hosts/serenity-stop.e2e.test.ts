import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bedrockClients, type GameClient } from './conformance/clients.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';

const fixtures = resolve(import.meta.dirname, 'fixtures/plugins');
const refusal = 'You do not have permission to execute this command.';

describe("SerenityJS's own /stop and operators: server.yml ops (real server, bedrock-protocol clients)", () => {
  let serverDir: string;
  let server: ServerProcess;
  const clients: GameClient[] = [];
  const connect = async (name: string) => {
    const client = await bedrockClients.join(server.port, name);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-serenity-stop-e2e-'));
    writeFileSync(join(serverDir, 'server.yml'), 'ops: [Moderator]\n');
    server = await startServerProcess(serverDir, [join(fixtures, 'gatekeeper')], undefined, {
      BAILIFF_TEST_EDITION: 'bedrock',
    });
  }, 40_000);

  afterAll(async () => {
    for (const client of clients) await client.quit().catch(() => {});
    if (server && server.child.exitCode === null) await server.stop();
    if (server?.child.pid && server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('refuses /stop to a player who is not an op, and the server keeps running', async () => {
    const plain = await connect('Plain');
    plain.command('stop');
    await plain.waitForMessage((t) => t === refusal);
    expect(server.child.exitCode).toBeNull();
    // Still answering: a plugin command after the refused /stop is run.
    plain.command('colour');
    await plain.waitForMessage((t) => t === 'Green bold gold plain');
  }, 30_000);

  it("makes an op a SerenityJS operator that SerenityJS's /deop cannot demote, writing no permissions.json", async () => {
    const moderator = await connect('Moderator');
    moderator.command('op Moderator');
    await moderator.waitForMessage((t) => t.startsWith('Player Moderator is already a server operator'));
    moderator.command('deop Moderator');
    await moderator.waitForMessage((t) => /^Successfully removed .*Moderator as a server operator/.test(t));
    moderator.command('time query');
    await moderator.waitForMessage((t) => t.startsWith('The current time of day is'));
    expect(moderator.messages).not.toContain(refusal);
    for (const dir of [serverDir, process.cwd()]) expect(existsSync(join(dir, 'permissions.json'))).toBe(false);
  }, 30_000);

  it("stops the server cleanly when an op types SerenityJS's /stop: onDisable runs, exit code 0", async () => {
    const moderator = clients.find((client) => client.name === 'Moderator')!;
    const exited = new Promise<number | null>((resolveExit) => server.child.once('exit', resolveExit));
    moderator.command('stop');
    expect(await exited).toBe(0);
    expect(server.lines.some((line) => line.includes('[Gatekeeper] gatekeeper onDisable ran'))).toBe(true);
    expect(server.lines.some((line) => line.includes('game server stopped'))).toBe(true);
    expect(moderator.messages).not.toContain(refusal);
  }, 30_000);
});
