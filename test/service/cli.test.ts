import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY_A1, testSeed } from './helpers/fixture.js';

const MAIN = join(import.meta.dirname, '../../dist/src/cli/main.js');
const dir = mkdtempSync(join(tmpdir(), 'bailiff-cli-test-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.pid) process.kill(child.pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [MAIN, 'service', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = async (count: number) => {
    for (let waited = 0; stdout.split('\n').length <= count; waited += 50) {
      if (waited > 15_000 || child.exitCode !== null) throw new Error(`no ${count} lines: ${stdout} ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return stdout.split('\n').slice(0, count);
  };
  return { child, exited, lines, output: () => ({ stdout, stderr }) };
}

describe('bailiff service (built CLI)', () => {
  it('prints the listening line and a generated admin token, serves, and stops cleanly on SIGTERM', async () => {
    const seedPath = join(dir, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(testSeed()));
    const service = run(['--port', '0', '--seed', seedPath, '--db', join(dir, 'cli.db')]);
    const [listening, token] = await service.lines(2);
    const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(listening!)?.[1];
    expect(url).toBeDefined();
    expect(token).toMatch(/^admin token: \S{16,}$/);
    const types = await fetch(`${url}/v1/minecraft/punishments/types`, { headers: { 'x-api-key': KEY_A1 } });
    expect(types.status).toBe(200);
    const admin = await fetch(`${url}/admin/v1/networks/alpha/migrations`, {
      headers: { authorization: `Bearer ${token!.slice('admin token: '.length)}` },
    });
    expect(admin.status).toBe(200);
    process.kill(service.child.pid!, 'SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.output().stdout).not.toContain(KEY_A1);
  });

  it.each([
    [['--port', 'abc'], "--port: must be an integer >= 0, received 'abc'"],
    [['--colour', 'red'], "Unknown option '--colour'"],
    [['--max-upload-mb', '0'], "--max-upload-mb: must be a number > 0, received '0'"],
    [['--address-history-days', '0'], "--address-history-days: must be an integer >= 1, received '0'"],
    [['--admin-token', 'short-token'], 'adminToken: must be at least 22 characters'],
    [['--connections-per-address', '0'], "--connections-per-address: must be an integer >= 1, received '0'"],
    [['--body-timeout-ms', '1.5'], "--body-timeout-ms: must be an integer >= 1, received '1.5'"],
    [
      ['--trust-proxy', '10.0.0.0/8,proxy.example'],
      "--trust-proxy: 'proxy.example' must be an IPv4 or IPv6 address, or a CIDR range like 203.0.113.0/24",
    ],
    [
      ['--trust-proxy-header', 'x-real-ip'],
      "--trust-proxy-header: must be x-forwarded-for or forwarded, received 'x-real-ip'",
    ],
  ])('exits 2 for bad flags %j', async (args, message) => {
    const service = run(args);
    expect(await service.exited).toBe(2);
    expect(service.output().stderr).toContain(message);
  });

  it('reads the trusted proxies from BAILIFF_TRUST_PROXY, naming it when an entry is bad', async () => {
    const service = run(['--port', '0'], { BAILIFF_TRUST_PROXY: '127.0.0.1, not-an-address' });
    expect(await service.exited).toBe(2);
    expect(service.output().stderr).toContain("BAILIFF_TRUST_PROXY: 'not-an-address' must be an IPv4 or IPv6 address");
  });

  it('exits 2 for a bad seed file, naming the file and the field', async () => {
    const seedPath = join(dir, 'bad-seed.json');
    writeFileSync(seedPath, JSON.stringify({ networks: [{ name: 'n', servers: [{ name: 's', apiKey: 42 }] }] }));
    const service = run(['--port', '0', '--seed', seedPath]);
    expect(await service.exited).toBe(2);
    expect(service.output().stderr).toContain(`--seed: ${seedPath}: networks[0].servers[0].apiKey: must be a string`);
  });
});
