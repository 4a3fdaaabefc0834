import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../hosts/helpers/server-process.js';
import { joinBot, mustJoin, type TestBot } from './helpers/bots.js';
import { waitFor } from './helpers/wait.js';

/** Cancels chat lines holding "secret" at the final priority, as Bailiff does for a mute. */
const GUARD = `export default {
  name: 'Guard',
  onEnable(ctx) {
    ctx.events.on('player:chat', (event) => {
      if (event.message.includes('secret')) event.cancelled = true;
    }, { priority: 'highest' });
  },
};
`;

/** Everything a careless (or hostile) plugin in the same process does. */
const SABOTEUR = `export default {
  name: 'Saboteur',
  onEnable(ctx) {
    setTimeout(() => { throw new Error('saboteur timer at start'); }, 1);
    Promise.reject(new Error('saboteur rejection at start'));
    ctx.events.on('player:join', ({ player }) => {
      setTimeout(() => { throw new Error('saboteur timer after ' + player.name + ' joined'); }, 1);
      Promise.reject(new Error('saboteur rejection after ' + player.name + ' joined'));
    });
    ctx.events.on('player:prelogin', (event) => {
      if (event.name === 'Victim') throw new Error('saboteur prelogin');
    });
    ctx.events.on('player:chat', (event) => { event.cancelled = false; }, { priority: 'highest' });
    ctx.events.on('player:chat', (event) => { event.cancelled = false; }, { priority: 'monitor' });
  },
};
`;

function writePlugin(serverDir: string, name: string, source: string): void {
  const folder = join(serverDir, 'plugins', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'plugin.yml'), `name: ${name}\nversion: 1.0.0\nmain: main.mjs\n`);
  writeFileSync(join(folder, 'main.mjs'), source);
}

describe('a plugin that throws, rejects and un-cancels, on a real flying-squid server', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-isolation-'));
  let server: ServerProcess | undefined;
  const bots: TestBot[] = [];

  beforeAll(async () => {
    writePlugin(dir, 'Guard', GUARD);
    writePlugin(dir, 'Saboteur', SABOTEUR);
    server = await startServerProcess(dir, []);
  });

  afterAll(async () => {
    for (const bot of bots) await bot.quit().catch(() => {});
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const logged = (text: string) => server!.waitForLine(new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

  it('logs the errors with the plugin name and keeps accepting players, before and after a join', async () => {
    const uncaught = await logged('saboteur timer at start');
    expect(uncaught).toContain('[Saboteur] uncaught error in plugin Saboteur; the server keeps running');
    const rejected = await logged('saboteur rejection at start');
    expect(rejected).toContain('[Saboteur] unhandled promise rejection in plugin Saboteur; the server keeps running');

    bots.push(await mustJoin(server!.port, 'Reader'));
    expect(await logged('saboteur timer after Reader joined')).toContain(
      '[Saboteur] uncaught error in plugin Saboteur',
    );
    expect(await logged('saboteur rejection after Reader joined')).toContain('[Saboteur] unhandled promise rejection');
    // flying-squid's own handler would have ended the process once a player had joined.
    bots.push(await mustJoin(server!.port, 'Listener'));
    expect(server!.child.exitCode).toBe(null);
  });

  it('refuses the join a throwing pre-login listener was checking, and names the plugin', async () => {
    const result = await joinBot(server!.port, 'Victim');
    expect(result).toEqual({ joined: false, reason: 'Login failed, please try again.' });
    expect(await logged('a player:prelogin listener threw; the join of Victim is refused')).toContain('[Saboteur]');
  });

  it('does not let a later listener un-cancel a chat line cancelled at highest', async () => {
    const [reader, listener] = bots;
    reader!.bot.chat('the secret plan');
    reader!.bot.chat('hello there');
    await waitFor('the listener to see "hello there"', () =>
      listener!.seen.some((line) => line.includes('hello there')),
    );
    expect(listener!.seen.filter((line) => line.includes('secret'))).toEqual([]);
    expect(
      await logged('[Saboteur] tried to un-cancel player:chat, which Guard cancelled at priority highest; ignored'),
    ).toBeTruthy();
    expect(
      await logged('[Saboteur] a monitor listener of player:chat may not change whether it is cancelled'),
    ).toBeTruthy();
  });
});
