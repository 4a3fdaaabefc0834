import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../e2e/helpers/game-server.js';
import { readFetchLog, sentInsideClientWindows } from './client-windows.js';
import { fetchRecorderEnv } from './fetch-recorder.js';

const RECORDER = join(REPOSITORY_ROOT, 'dist', 'test', 'support', 'fetch-recorder.js');

/** A process preloaded with the built recorder: one call answered 429, then one sent regardless of its wait. */
const CLIENT = `
const base = process.argv[1];
const first = await fetch(base + '/limited', { method: 'POST', body: '{}' });
const body = await first.text();
await fetch(base + '/ignored');
console.log(first.status, body);
`;

/** One call answered 429 whose body comes late; another sent after its status line, before its body was read. */
const LATE_BODY_CLIENT = `
const base = process.argv[1];
const first = await fetch(base + '/limited');
await fetch(base + '/ignored');
console.log(first.status, await first.text());
`;

/** Runs `script` in a process preloaded with the recorder; resolves to what it printed. */
async function runRecorded(script: string, base: string, logPath: string): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, base], {
    env: { ...process.env, ...fetchRecorderEnv(RECORDER, logPath) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
  return output.trim();
}

describe('fetch recorder (preloaded into a child process)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-fetch-recorder-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('logs every send and each 429 with its wait, and hands the 429 on unchanged', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/limited') {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end('{"retryAfterSeconds":1}');
        return;
      }
      response.end('ok');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const logPath = join(dir, 'fetches.jsonl');
    try {
      expect(await runRecorded(CLIENT, base, logPath)).toBe('429 {"retryAfterSeconds":1}');
    } finally {
      server.close();
    }
    const log = readFetchLog(logPath);
    expect(log.map((entry) => `${entry.event} ${entry.method} ${entry.path}`)).toEqual([
      'sent POST /limited',
      'rate-limited POST /limited',
      'sent GET /ignored',
    ]);
    expect(log[1]).toMatchObject({ waitSeconds: 1, origin: base });
    expect(sentInsideClientWindows(log, base).map(({ request }) => request.path)).toEqual(['/ignored']);
  });

  it('numbers a 429 when its status line arrives and hands it on unread: what is sent before its body counts', async () => {
    const server = createServer((request, response) => {
      if (request.url !== '/limited') return void response.end('ok');
      response.writeHead(429, { 'content-type': 'application/json' });
      response.flushHeaders();
      setTimeout(() => response.end('{"retryAfterSeconds":2}'), 300);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const logPath = join(dir, 'late-body.jsonl');
    try {
      expect(await runRecorded(LATE_BODY_CLIENT, base, logPath)).toBe('429 {"retryAfterSeconds":2}');
    } finally {
      server.close();
    }
    const log = readFetchLog(logPath);
    expect(log.map((entry) => `${entry.event} ${entry.path}`)).toEqual([
      'sent /limited',
      'rate-limited /limited',
      'sent /ignored',
    ]);
    expect(log[1]).toMatchObject({ waitSeconds: 2 });
    expect(sentInsideClientWindows(log, base).map(({ request }) => request.path)).toEqual(['/ignored']);
  });
});
