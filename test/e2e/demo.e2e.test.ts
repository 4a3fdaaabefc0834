import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from './helpers/game-server.js';

const CLI = `${REPOSITORY_ROOT}/dist/src/cli/main.js`;
const DEMO_LIMIT_MS = 240_000;

describe('npm run demo (bailiff demo: a real server, three bots, the embedded service)', () => {
  let demo: ChildProcess | undefined;
  afterAll(async () => {
    if (demo?.exitCode !== null || demo.signalCode !== null) return;
    // SIGTERM lets the demo stop the game server it started; SIGKILL if it does not exit.
    const exit = once(demo, 'exit');
    demo.kill('SIGTERM');
    const killer = setTimeout(() => demo?.kill('SIGKILL'), 15_000);
    await exit;
    clearTimeout(killer);
  });

  it('runs every step and exits 0: Alice banned and refused, Bob muted unheard, Alice back after the pardon', {
    timeout: DEMO_LIMIT_MS + 30_000,
  }, async () => {
    const started = spawn(process.execPath, [CLI, 'demo'], { cwd: REPOSITORY_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    demo = started;
    let output = '';
    started.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    started.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const killer = setTimeout(() => started.kill('SIGTERM'), DEMO_LIMIT_MS);
    const [code] = (await once(started, 'exit')) as [number | null];
    clearTimeout(killer);
    expect(output).toContain('1. Alice, Bob and Carol join together');
    expect(output).toMatch(/\[Alice is disconnected\] You are banned from this server\. \| Reason: demo: x-ray/);
    expect(output).toContain("Carol received Bob's chat or whisper: no");
    expect(output).toContain('Alice is back in: yes');
    expect(output).toContain('demo finished');
    // The bundled config.yml has no appeal URL: the screens carry no dangling "Appeal at" line.
    expect(output).not.toContain('Appeal at');
    expect(code).toBe(0);
  });
});
