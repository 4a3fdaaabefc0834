import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectKicked, joinBot, type TestBot } from './helpers/bots.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';

const fixtures = resolve(import.meta.dirname, 'fixtures/plugins');

describe('flying-squid host with the plugin runtime (real server, real bots)', () => {
  let serverDir: string;
  let server: ServerProcess;
  const bots: TestBot[] = [];
  const connect = async (name: string) => {
    const bot = await joinBot(server.port, name);
    bots.push(bot);
    return bot;
  };

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-host-e2e-'));
    writeFileSync(join(serverDir, 'server.yml'), 'ops: [OpBot]\n');
    writeFileSync(join(serverDir, 'permissions.yml'), 'players:\n  Granted: [fixture.granted]\n');
    server = await startServerProcess(serverDir, [join(fixtures, 'gatekeeper'), join(fixtures, 'broken')]);
  });

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    if (server && server.child.exitCode === null) await server.stop();
    if (server?.child.pid && server.child.exitCode === null) server.child.kill('SIGKILL');
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('keeps serving when a plugin throws in onEnable', async () => {
    await server.waitForLine(/\[Broken\] enable failed: Error: fixture enable failure/);
    await server.waitForLine(/\[Gatekeeper\] enabled Gatekeeper v1\.0\.0/);
    await connect('Alice');
    // The other plugin's listeners still run.
    await server.waitForLine(/\[Gatekeeper\] fixture saw join of Alice/);
  });

  it('refuses a player at pre-login with the message, leaving no half-joined player', async () => {
    const reason = await expectKicked(server.port, 'Denied');
    expect(reason).toBe('You shall not pass, Denied');
    await server.waitForLine(/connection of Denied closed before admission/);

    const from = server.lines.length;
    server.send('list');
    const line = await server.waitForLine(/players online \(\d+\):/, 10_000, from);
    expect(line).toContain('players online (1): Alice');
    expect(line).toContain('tracked: Alice |');
    expect(line).toContain('connections: 1');
  });

  it('cancels a chat message so other players never see it', async () => {
    const alice = bots.find((b) => b.name === 'Alice')!;
    const bob = await connect('Bob');
    alice.bot.chat('my secret plan');
    alice.bot.chat('hello after');
    await bob.waitForMessage((text) => text.includes('hello after'));
    await alice.waitForMessage((text) => text === 'Your message was held back.');
    expect(bob.messages.some((text) => text.includes('secret'))).toBe(false);
  });

  it('blocks a command before flying-squid runs it', async () => {
    const alice = bots.find((b) => b.name === 'Alice')!;
    alice.bot.chat('/ping');
    alice.bot.chat('/colour');
    await alice.waitForMessage((text) => text === 'ping is blocked here');
    await alice.waitForMessage((text) => text.startsWith('Green'));
    expect(alice.messages.some((text) => text.includes('pong'))).toBe(false);
  });

  it('renders & colour codes: the bot sees styled text, never a raw &', async () => {
    const alice = bots.find((b) => b.name === 'Alice')!;
    const text = await alice.waitForMessage((t) => t.startsWith('Green'));
    expect(text).toBe('Green bold gold plain');
    const component = alice.components[alice.messages.indexOf(text)] as { extra?: { text: string; color?: string }[] };
    expect(component.extra).toContainEqual(expect.objectContaining({ text: 'Green ', color: 'green' }));
    const bold = component.extra?.find((part) => part.text === 'bold gold') as { color?: string; bold?: unknown };
    // NBT chat (1.20.3+) carries booleans as bytes.
    expect(bold).toMatchObject({ color: 'gold' });
    expect(Boolean(bold.bold)).toBe(true);
    // flying-squid's own messages ("joined the game") are rendered too.
    expect(alice.messages.some((t) => t.includes('&'))).toBe(false);
    expect(alice.messages).toContain('Bob joined the game.');
  });

  it('lets ops, permissions.yml grants and node defaults decide who may run a command', async () => {
    const alice = bots.find((b) => b.name === 'Alice')!;
    const op = await connect('OpBot');
    const granted = await connect('Granted');

    alice.bot.chat('/secure');
    await alice.waitForMessage((t) => t === 'You do not have permission to use /secure.');
    op.bot.chat('/secure');
    await op.waitForMessage((t) => t === 'secure ok');

    granted.bot.chat('/grant-check');
    await granted.waitForMessage((t) => t === 'granted ok via grant-check');
    // default: false, so even an op needs the grant.
    op.bot.chat('/granted');
    await op.waitForMessage((t) => t === 'You do not have permission to use /granted.');
  });

  it('shows usage on bad arguments and a generic message when a command throws', async () => {
    const alice = bots.find((b) => b.name === 'Alice')!;
    alice.bot.chat('/greet');
    await alice.waitForMessage((t) => t === 'greet needs exactly one name');
    await alice.waitForMessage((t) => t === 'Usage: /greet <name>');
    alice.bot.chat('/boom');
    await alice.waitForMessage((t) => t === 'An internal error occurred while running this command.');
    await server.waitForLine(/\[Gatekeeper\] \/boom threw.*fixture command failure/);
  });

  it("completes a plugin command's arguments through its tabComplete hook", async () => {
    const alice = bots.find((b) => b.name === 'Alice')!;
    const matches = (await alice.bot.tabComplete('/greet B')) as unknown as ({ match: string } | string)[];
    expect(matches.map((m) => (typeof m === 'string' ? m : m.match))).toEqual(['Bob']);
  });

  it('delivers /tell (bot.whisper) and /r between players, and lets a plugin block them', async () => {
    const alice = bots.find((b) => b.name === 'Alice')!;
    const bob = bots.find((b) => b.name === 'Bob')!;
    alice.bot.whisper('Bob', 'hi there');
    await bob.waitForMessage((t) => t === '[Alice -> you] hi there');
    await alice.waitForMessage((t) => t === '[you -> Bob] hi there');
    bob.bot.chat('/r right back');
    await alice.waitForMessage((t) => t === '[Bob -> you] right back');

    const muted = await connect('Muted');
    muted.bot.whisper('Bob', 'let me talk');
    muted.bot.chat('/msg Bob still muted');
    muted.bot.chat('muted barrier');
    await muted.waitForMessage((t) => t === 'You are muted.');
    await bob.waitForMessage((t) => t.includes('muted barrier'));
    expect(bob.messages.some((t) => t.includes('let me talk') || t.includes('still muted'))).toBe(false);
  });

  it('runs onDisable on SIGTERM and exits cleanly', async () => {
    const code = await server.stop();
    expect(code).toBe(0);
    expect(server.lines.some((line) => line.includes('[Gatekeeper] gatekeeper onDisable ran'))).toBe(true);
    expect(server.lines.some((line) => line.includes('game server stopped'))).toBe(true);
  });
});
