import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectKicked, joinBot, type TestBot } from './helpers/bots.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';

// Before 1.20.3 chat and kick reasons travel as JSON text instead of NBT: the other encoding path.
const version = '1.12.2';
const fixtures = resolve(import.meta.dirname, 'fixtures/plugins');

describe(`flying-squid host on ${version} (JSON chat components)`, () => {
  let serverDir: string;
  let server: ServerProcess;
  const bots: TestBot[] = [];

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-host-legacy-'));
    server = await startServerProcess(serverDir, [join(fixtures, 'gatekeeper')], version);
  });

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    if (server && server.child.exitCode === null) await server.stop();
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('shows a refused player the rendered deny message', async () => {
    expect(await expectKicked(server.port, 'Denied', version)).toBe('You shall not pass, Denied');
  });

  it('renders & colour codes in messages and lets the console run plugin commands', async () => {
    const alice = await joinBot(server.port, 'Alice', version);
    bots.push(alice);
    alice.bot.chat('/colour');
    const text = await alice.waitForMessage((t) => t.startsWith('Green'));
    expect(text).toBe('Green bold gold plain');
    const component = alice.components[alice.messages.indexOf(text)] as { extra?: Record<string, unknown>[] };
    expect(component.extra).toContainEqual(expect.objectContaining({ text: 'bold gold', color: 'gold', bold: true }));
    expect(alice.messages.some((t) => t.includes('&'))).toBe(false);

    const from = server.lines.length;
    server.send('secure');
    await server.waitForLine(/INFO secure ok$/, 10_000, from);
  });
});
