import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentText, joinBot, type TestBot } from './helpers/bots.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';

const fixtures = resolve(import.meta.dirname, 'fixtures/plugins');
const noPermission = (text: string) => text.includes('permission');

describe("a plugin takes over flying-squid's commands; server.yml ops are flying-squid ops (real server, real bots)", () => {
  let serverDir: string;
  let server: ServerProcess;
  const bots: TestBot[] = [];
  const connect = async (name: string) => {
    const bot = await joinBot(server.port, name);
    bots.push(bot);
    return bot;
  };
  /** Sends console commands, then resolves with the first line after them matching `pattern`. */
  const consoleRun = (commands: string[], pattern: RegExp) => {
    const from = server.lines.length;
    for (const command of commands) server.send(command);
    return server.waitForLine(pattern, 10_000, from);
  };

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-takeover-e2e-'));
    writeFileSync(join(serverDir, 'server.yml'), 'ops: [Moderator]\n');
    server = await startServerProcess(serverDir, [join(fixtures, 'warden')]);
  });

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    if (server && server.child.exitCode === null) await server.stop();
    if (server?.child.pid && server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('logs at start which host commands were taken over, and which moderation commands flying-squid keeps', async () => {
    await server.waitForLine(/\[Warden\] takes over flying-squid's commands \/ban, \/kick, \/pardon$/);
    await server.waitForLine(/flying-squid's own \/ban-ip, \/banlist, \/pardon-ip still answer/);
  });

  it("runs the plugin's /ban for an op, and nothing reaches flying-squid's own ban list", async () => {
    const moderator = await connect('Moderator');
    const target = await connect('Target');
    moderator.bot.chat('/ban Target griefing');
    await moderator.waitForMessage((t) => t === 'fixture banned Target: griefing');
    // /banlist is still flying-squid's own and op-only: the op may run it, and its list is empty.
    moderator.bot.chat('/banlist');
    await moderator.waitForMessage((t) => t.startsWith('There are 0 total banned players'));
    // flying-squid's /ban would have kicked the target: it is still here and can talk.
    target.bot.chat('still here');
    await moderator.waitForMessage((t) => t.includes('still here'));
    expect(moderator.messages.some(noPermission)).toBe(false);
  });

  it("runs the plugin's command for an alias that matches a host command (/pardon)", async () => {
    const moderator = bots.find((b) => b.name === 'Moderator')!;
    moderator.bot.chat('/pardon Target');
    await moderator.waitForMessage((t) => t === 'fixture unbanned Target via pardon');
  });

  it("runs the plugin's /kick for an op, with the plugin's kick message", async () => {
    const moderator = bots.find((b) => b.name === 'Moderator')!;
    const target = bots.find((b) => b.name === 'Target')!;
    const kicked = new Promise<string>((resolveKick) =>
      target.bot.once('kicked', (reason) => resolveKick(componentText(reason))),
    );
    moderator.bot.chat('/kick Target spamming');
    expect(await kicked).toContain('Kicked by the fixture: spamming');
    await moderator.waitForMessage((t) => t === 'fixture kicked Target');
    expect(moderator.messages.some(noPermission)).toBe(false);
  });

  it("shows the plugin's usage in flying-squid's /help", async () => {
    const moderator = bots.find((b) => b.name === 'Moderator')!;
    moderator.bot.chat('/help ban');
    await moderator.waitForMessage(
      (t) => t === '/ban <player> [reason...]: Bans through the fixture (never through flying-squid).',
    );
  });

  it("runs the plugin's ban from the console, and flying-squid's list stays empty", async () => {
    await consoleRun(['ban Target from the console'], /\[Warden\] fixture ban of Target by CONSOLE: from the console/);
    await consoleRun(['banlist'], /There are 0 total banned players/);
  });

  it("still refuses a player who is not an op, both the plugin's commands and flying-squid's op-only ones", async () => {
    const plain = await connect('Plain');
    plain.bot.chat('/ban Moderator');
    await plain.waitForMessage((t) => t === 'You do not have permission to use /ban.');
    plain.bot.chat('/banlist');
    await plain.waitForMessage((t) => t === 'You do not have permission to use this command');
    const moderator = bots.find((b) => b.name === 'Moderator')!;
    expect(moderator.messages.some((t) => t.startsWith('fixture banned Moderator'))).toBe(false);
  });

  it("stops the server cleanly when an op types flying-squid's /stop (plugins' onDisable runs)", async () => {
    const moderator = bots.find((b) => b.name === 'Moderator')!;
    const exited = new Promise<number | null>((resolveExit) => server.child.once('exit', resolveExit));
    moderator.bot.chat('/stop');
    expect(await exited).toBe(0);
    expect(server.lines.some((line) => line.includes('[Warden] warden onDisable ran'))).toBe(true);
    expect(server.lines.some((line) => line.includes('game server stopped'))).toBe(true);
  });
});
