import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'bailiff-webhooks-allow-private-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
  }
});

/** A seed whose one webhook goes to a loopback address (nothing listens there: only the start is looked at). */
const seedPath = join(dir, 'seed.json');
writeFileSync(
  seedPath,
  JSON.stringify({
    networks: [
      {
        name: 'main',
        servers: [{ name: 'lobby', apiKey: 'webhooks-allow-private-key-1' }],
        webhooks: [{ name: 'local', url: 'http://127.0.0.1:9/hook', events: ['appeal.created'] }],
      },
    ],
  }),
);

function capture() {
  const chunks: string[] = [];
  const stream = { write: (chunk: string) => chunks.push(chunk) } as unknown as NodeJS.WritableStream;
  return { stream, text: () => chunks.join('') };
}

/** Starts the built `bailiff service`; resolves with what it printed once it listens. */
async function startBuilt(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const main = new URL('../../dist/src/cli/main.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [main, 'service', '--port', '0', '--seed', seedPath, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 15_000;
  while (!/listening on (\S+)\n/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no listening line: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return output;
}

describe('bailiff service --webhooks-allow-private', { timeout: 30_000 }, () => {
  it('refuses a seed with an internal webhook by default, naming the URL problem and the setting', async () => {
    const err = capture();
    const code = await runCli(['service', '--port', '0', '--seed', seedPath], {
      stdout: capture().stream,
      stderr: err.stream,
      env: {},
    });
    expect(code).toBe(2);
    expect(err.text()).toContain(
      'bailiff service: --seed: seed: networks[0].webhooks[0].url: the webhook destination is refused: 127.0.0.1 is a loopback address',
    );
    expect(err.text()).toContain('--webhooks-allow-private');
  });

  it('names a wrong BAILIFF_WEBHOOKS_ALLOW_PRIVATE value', async () => {
    const err = capture();
    const code = await runCli(['service', '--port', '0'], {
      stdout: capture().stream,
      stderr: err.stream,
      env: { BAILIFF_WEBHOOKS_ALLOW_PRIVATE: 'yes please' },
    });
    expect(code).toBe(2);
    expect(err.text()).toContain("BAILIFF_WEBHOOKS_ALLOW_PRIVATE: must be 1, true, 0 or false, received 'yes please'");
  });

  it('starts with the flag, and with BAILIFF_WEBHOOKS_ALLOW_PRIVATE=1', async () => {
    expect(await startBuilt(['--webhooks-allow-private'], {})).toContain('listening on http://127.0.0.1:');
    expect(await startBuilt([], { BAILIFF_WEBHOOKS_ALLOW_PRIVATE: '1' })).toContain('listening on http://127.0.0.1:');
  });
});
