import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { readEmbeddedService } from '../../../plugin/config/embedded-service.js';
import { createModerationClient } from '../../api/client.js';
import { LOOPBACK_TEST_SETTINGS } from '../../hosts/server-settings.js';
import { componentText } from '../../minecraft/chat-text.js';
import { offlineUuid } from '../../minecraft/offline-uuid.js';
import type { CliCommand } from '../command.js';

const MAIN = fileURLToPath(new URL('../main.js', import.meta.url));
const WAIT_MS = 20_000;

async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  for (let waited = 0; waited <= WAIT_MS; waited += 200) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`gave up after ${WAIT_MS / 1000} s waiting for ${what}`);
}

/** `npm run demo`: bots against a fresh `bailiff start` in a temporary folder, narrating what each saw. */
export const command: CliCommand = async ({ stdout }) => {
  const say = (line: string) => stdout.write(`${line}\n`);
  const { default: mineflayer } = await import('mineflayer');
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-demo-'));
  mkdirSync(join(dir, 'plugin-data', 'Bailiff'), { recursive: true });
  writeFileSync(join(dir, 'server.yml'), stringify(LOOPBACK_TEST_SETTINGS));
  let server: ChildProcess | undefined;
  const bots: Array<{ quit(): void }> = [];

  type Seen = { lines: string[]; kicked?: string; spawned: boolean };
  const join_ = (port: number, name: string) => {
    const seen: Seen = { lines: [], spawned: false };
    const bot = mineflayer.createBot({ host: '127.0.0.1', port, username: name, version: '1.21.4', auth: 'offline' });
    bots.push({ quit: () => bot.end() });
    bot.on('messagestr', (line) => {
      seen.lines.push(line);
      say(`  [${name} sees] ${line}`);
    });
    bot.on('kicked', (reason) => {
      seen.kicked = componentText(reason);
      say(`  [${name} is disconnected] ${seen.kicked.replace(/\n/g, ' | ')}`);
    });
    bot.on('error', () => {});
    bot.once('spawn', () => {
      seen.spawned = true;
    });
    return { bot, seen };
  };

  try {
    say(`starting a fresh server in ${dir} ...`);
    server = spawn(process.execPath, [MAIN, 'start', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    server.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const port = Number(
      await until('the game server', () => /^game server listening on [\d.]+:(\d+)$/m.exec(output)?.[1]),
    );
    const embedded = readEmbeddedService(join(dir, 'plugin-data', 'Bailiff'))!;
    say(`game server on 127.0.0.1:${port}, moderation service on ${embedded.url}`);
    const client = createModerationClient({ baseUrl: embedded.url, apiKey: embedded.apiKey });
    const admin = (path: string, body: unknown) =>
      fetch(`${embedded.url}/admin/v1/networks/${embedded.network}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${embedded.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const name of ['Alice', 'Bob', 'Carol']) await admin('/players', { uuid: offlineUuid(name), name });

    say('\n1. Alice, Bob and Carol join');
    const alice = join_(port, 'Alice');
    const bob = join_(port, 'Bob');
    const carol = join_(port, 'Carol');
    await until('the bots to spawn', () => alice.seen.spawned && bob.seen.spawned && carol.seen.spawned);

    say('\n2. a moderator bans Alice through the API (Manual Ban, "demo: x-ray")');
    const { punishmentId } = await client.createPunishmentDynamic({
      targetUuid: offlineUuid('Alice'),
      typeOrdinal: 2,
      issuerName: 'DemoModerator',
      reason: 'demo: x-ray',
    });
    await until('Alice to be kicked', () => alice.seen.kicked);
    say('   Alice tries to come back:');
    const retry = join_(port, 'Alice');
    await until('the refusal', () => retry.seen.kicked);

    say('\n3. Bob is muted (Chat Abuse, "demo: spam"), then chats and whispers to Carol');
    await client.createPunishmentDynamic({
      targetUuid: offlineUuid('Bob'),
      typeOrdinal: 6,
      issuerName: 'DemoModerator',
      reason: 'demo: spam',
    });
    await until('the mute notice', () => bob.seen.lines.some((line) => line.includes('muted')));
    bob.bot.chat('hello from a muted Bob');
    bob.bot.whisper('Carol', 'psst, a muted whisper');
    carol.bot.chat('Carol is still here');
    await until('Carol to see her own line', () =>
      carol.seen.lines.some((line) => line.includes('Carol is still here')),
    );
    const leaked = carol.seen.lines.some((line) => line.includes('muted Bob') || line.includes('muted whisper'));
    say(`   Carol received Bob's chat or whisper: ${leaked ? 'YES (unexpected)' : 'no'}`);

    say('\n4. the ban is pardoned in the service; Alice joins again');
    await admin(`/punishments/${punishmentId}/status`, { status: 'pardoned' });
    const back = await until('Alice to be let back in', async () => {
      const attempt = join_(port, 'Alice');
      await until('an answer', () => attempt.seen.spawned || attempt.seen.kicked !== undefined || undefined);
      return attempt.seen.spawned ? attempt : undefined;
    });
    say(`   Alice is back in: ${back.seen.spawned ? 'yes' : 'no'}`);
    say('\ndemo finished');
    return leaked ? 1 : 0;
  } finally {
    for (const bot of bots) bot.quit();
    server?.kill('SIGTERM');
    const killer = setTimeout(() => server?.kill('SIGKILL'), 5000);
    if (server && server.exitCode === null) await new Promise((resolve) => server!.once('exit', resolve));
    clearTimeout(killer);
    rmSync(dir, { recursive: true, force: true });
  }
};
