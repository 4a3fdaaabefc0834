import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinBot, type TestBot } from './helpers/bots.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';

const fixtures = resolve(import.meta.dirname, 'fixtures/plugins');

// Where the packet or the data around it changes: the oldest version (no `assumeCommand`), the
// last with plain-string matches, the first with start/length/tooltips, the unified spawn packet,
// NBT tooltips, and the default. test/hosts/tab-completion.test.ts encodes the answer for every
// version flying-squid supports.
const VERSIONS = ['1.8.8', '1.12.2', '1.13.2', '1.16.5', '1.20.2', '1.20.3', '1.21.4'];
const LEGACY_PACKET = new Set(['1.8.8', '1.9.4', '1.10.2', '1.11.2', '1.12.2']);

const words = (matches: unknown[]) =>
  matches.map((match) => (typeof match === 'string' ? match : (match as { match: string }).match));

describe.each(VERSIONS)('tab completion on flying-squid %s (real server, real bot)', { timeout: 60_000 }, (version) => {
  let serverDir: string;
  let server: ServerProcess;
  let alice: TestBot;
  const legacy = LEGACY_PACKET.has(version);
  const commandName = (name: string) => (legacy ? `/${name}` : name);

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-tab-completion-'));
    writeFileSync(join(serverDir, 'server.yml'), 'ops: [Alice]\n');
    server = await startServerProcess(serverDir, [join(fixtures, 'gatekeeper')], version);
    alice = await joinBot(server.port, 'Alice', version, 30_000);
  }, 60_000);

  afterAll(async () => {
    alice?.quit();
    if (server?.child.exitCode === null) await server.stop();
    rmSync(serverDir, { recursive: true, force: true });
  });

  it("completes command names (/ba, the request that disconnected players), the host's and the plugins'", async () => {
    expect(words(await alice.bot.tabComplete('/ba'))).toEqual(['ban', 'ban-ip', 'banlist'].map(commandName));
    // `granted` needs a grant even for ops: not offered.
    expect(words(await alice.bot.tabComplete('/gr'))).toEqual([commandName('greet')]);
  });

  it("completes a plugin command's argument, a host command's argument and a name in chat", async () => {
    expect(words(await alice.bot.tabComplete('/greet Al'))).toEqual(['Alice']);
    expect(words(await alice.bot.tabComplete('/help pin'))).toEqual(['ping']);
    expect(words(await alice.bot.tabComplete('hi Al'))).toEqual(['Alice']);
  });

  it('keeps the connection: the player still runs commands afterwards', async () => {
    alice.bot.chat('/colour');
    await alice.waitForMessage((text) => text === 'Green bold gold plain', 15_000);
    expect(server.lines.filter((line) => /SizeOf error|Write error|Disconnecting client/.test(line))).toEqual([]);
  });
});
