/**
 * Resident memory of a flying-squid server with the plugin runtime (and the test fixture
 * plugin) loaded, versus flying-squid alone; both idle and with two bots joined. Each server
 * runs in its own child process, measured from /proc after it settles.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import mineflayer from 'mineflayer';
import type { BenchResult } from './result.js';

const root = resolve(import.meta.dirname, '../..');
const SETTLE_MS = 2500;

const aloneScript = `
const { createMCServer } = require('flying-squid');
const serv = createMCServer({ host: '127.0.0.1', port: 0, 'online-mode': false, logging: false, noConsoleOutput: true,
  version: '1.21.4', generation: { name: 'superflat', options: { worldHeight: 80 } }, 'view-distance': 2,
  plugins: {}, 'max-players': 20, kickTimeout: 10000, gameMode: 0, 'max-entities': 100, 'everybody-op': false,
  'player-list-text': { header: { text: '' }, footer: { text: '' } } });
serv.on('listening', (port) => process.stdout.write('game server listening on 127.0.0.1:' + port + '\\n'));
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return Math.round((kb / 1024) * 10) / 10;
}

function waitForPort(child: ChildProcess): Promise<number> {
  return new Promise((resolvePort, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /game server listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    });
    child.once('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
}

async function joinBots(port: number, count: number): Promise<mineflayer.Bot[]> {
  const bots: mineflayer.Bot[] = [];
  for (let i = 0; i < count; i++) {
    const bot = mineflayer.createBot({
      host: '127.0.0.1',
      port,
      username: `Rss${i}`,
      auth: 'offline',
      version: '1.21.4',
    });
    bot.on('error', () => {});
    await new Promise<void>((resolveSpawn, reject) => {
      const timer = setTimeout(() => reject(new Error('bot did not spawn')), 15_000);
      bot.once('spawn', () => {
        clearTimeout(timer);
        resolveSpawn();
      });
    });
    bots.push(bot);
  }
  return bots;
}

async function measure(args: string[]): Promise<{ idle: number; withBots: number }> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  let bots: mineflayer.Bot[] = [];
  try {
    const port = await waitForPort(child);
    await sleep(SETTLE_MS);
    const idle = rssMb(child.pid!);
    bots = await joinBots(port, 2);
    await sleep(SETTLE_MS);
    return { idle, withBots: rssMb(child.pid!) };
  } finally {
    for (const bot of bots) bot.quit();
    child.kill('SIGKILL');
  }
}

export async function run(): Promise<BenchResult[]> {
  const serverDir = mkdtempSync(join(tmpdir(), 'bailiff-bench-rss-'));
  try {
    const alone = await measure(['-e', aloneScript]);
    const withRuntime = await measure([
      join(root, 'dist/test/hosts/fixtures/run-server.js'),
      serverDir,
      join(root, 'test/hosts/fixtures/plugins/gatekeeper'),
    ]);
    return [
      { name: 'rss: flying-squid alone, idle', unit: 'MB', value: alone.idle },
      { name: 'rss: flying-squid + runtime + fixture plugin, idle', unit: 'MB', value: withRuntime.idle },
      { name: 'rss: flying-squid alone, 2 bots', unit: 'MB', value: alone.withBots },
      { name: 'rss: flying-squid + runtime + fixture plugin, 2 bots', unit: 'MB', value: withRuntime.withBots },
      {
        name: 'rss: runtime overhead, idle',
        unit: 'MB',
        value: Math.round((withRuntime.idle - alone.idle) * 10) / 10,
        notes: '1.21.4, superflat, view-distance 2, in-memory world',
      },
    ];
  } finally {
    rmSync(serverDir, { recursive: true, force: true });
  }
}
