import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBailiffStart } from './helpers/bailiff-start.js';

describe('flying-squid host on a TCP port already in use', () => {
  const serverDir = mkdtempSync(join(tmpdir(), 'bailiff-flying-squid-port-'));
  const blocker: Server = createServer();
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    blocker.close();
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('`bailiff start` fails with one line naming the port, and no stack trace', { timeout: 40_000 }, async () => {
    blocker.listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as { port: number }).port;
    writeFileSync(join(serverDir, 'server.yml'), 'host: 127.0.0.1\nonlineMode: false\nworldFolder: null\n');
    const started = runBailiffStart(serverDir, port);
    child = started.child;
    const { code, output } = await started.exit;
    expect(code).toBe(1);
    const mentions = output.split('\n').filter((line) => line.includes(String(port)) || /EADDRINUSE/.test(line));
    expect(mentions).toEqual([
      `bailiff start: TCP port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop what uses it, or set another port in server.yml`,
    ]);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('game server listening on');
  });
});
