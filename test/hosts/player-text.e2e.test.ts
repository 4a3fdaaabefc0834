import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectKicked, joinBot, type TestBot } from './helpers/bots.js';
import { type ServerProcess, startServerProcess } from './helpers/server-process.js';

/** Every style any part of a chat component carries (colour, bold, ...), as `name=value`. */
function stylesOf(component: unknown): string[] {
  if (component === null || typeof component !== 'object') return [];
  if (Array.isArray(component)) return component.flatMap(stylesOf);
  const styles: string[] = [];
  for (const [name, value] of Object.entries(component)) {
    if (name === 'extra' || name === 'with') styles.push(...stylesOf(value));
    else if (['color', 'bold', 'italic', 'underlined', 'strikethrough', 'obfuscated'].includes(name) && value) {
      styles.push(`${name}=${String(value)}`);
    }
  }
  return styles;
}

// 1.21.4 sends chat as NBT components, 1.20.1 as JSON system chat, 1.12.2 as JSON in the legacy chat packet.
describe.each(['1.21.4', '1.20.1', '1.12.2'])('player text on flying-squid %s is shown as typed', (version) => {
  let serverDir: string;
  let server: ServerProcess;
  const bots: TestBot[] = [];

  beforeAll(async () => {
    serverDir = mkdtempSync(join(tmpdir(), 'bailiff-player-text-'));
    server = await startServerProcess(serverDir, [], version);
  });

  afterAll(async () => {
    for (const bot of bots) bot.quit();
    if (server && server.child.exitCode === null) await server.stop();
    rmSync(serverDir, { recursive: true, force: true });
  });

  const connect = async (name: string) => {
    const bot = await joinBot(server.port, name, version);
    bots.push(bot);
    return bot;
  };

  /** The component of the first message containing `needle`, after waiting for it. */
  const received = async (bot: TestBot, needle: string) => {
    const text = await bot.waitForMessage((t) => t.includes(needle));
    return { text, component: bot.components[bot.messages.indexOf(text)] };
  };

  it('does not read & or § codes in public chat', async () => {
    const mallory = await connect('Mallory');
    const watcher = await connect('Watcher');
    mallory.bot.chat('&4&l[Server] &cpublic one');
    mallory.bot.chat('§4§l[Server] public two');

    const first = await received(watcher, 'public one');
    expect(first.text).toBe('<Mallory> &4&l[Server] &cpublic one');
    expect(stylesOf(first.component)).toEqual([]);
    // No client shows § as text: it becomes & and stays inert.
    const second = await received(watcher, 'public two');
    expect(second.text).toBe('<Mallory> &4&l[Server] public two');
    expect(stylesOf(second.component)).toEqual([]);
  });

  it('does not read & or § codes in private messages', async () => {
    const [mallory, watcher] = bots;
    mallory!.bot.chat('/msg Watcher &4[Server] private one');
    mallory!.bot.chat('/msg Watcher §4[Server] private two');

    const first = await received(watcher!, 'private one');
    expect(first.text).toBe('[Mallory -> you] &4[Server] private one');
    expect(stylesOf(first.component)).not.toContain('color=dark_red');
    const second = await received(watcher!, 'private two');
    expect(second.text).toBe('[Mallory -> you] &4[Server] private two');
    expect(stylesOf(second.component)).not.toContain('color=dark_red');
    // The whisper's own frame keeps its colours: only the player's part is plain.
    expect(stylesOf(second.component)).toContain('color=light_purple');
  });

  it('refuses a name holding & or § codes before it is shown anywhere', async () => {
    const reason = await expectKicked(server.port, '&4Admin', version);
    expect(reason).toContain('Your name holds characters this server does not accept');
    const watcher = bots[1]!;
    expect(watcher.messages.some((line) => line.includes('Admin'))).toBe(false);
  });
});
