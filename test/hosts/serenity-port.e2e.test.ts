import type { ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBailiffStart } from './helpers/bailiff-start.js';

describe('SerenityJS host on a UDP port already in use', () => {
  const serverDir = mkdtempSync(join(tmpdir(), 'bailiff-serenity-port-'));
  const blocker = createSocket('udp4');
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    blocker.close();
    rmSync(serverDir, { recursive: true, force: true });
  });

  it('`bailiff start` fails with the bind error, instead of crashing later', { timeout: 40_000 }, async () => {
    blocker.bind(0, '127.0.0.1');
    await once(blocker, 'listening');
    writeFileSync(
      join(serverDir, 'server.yml'),
      'edition: bedrock\nhost: 127.0.0.1\nonlineMode: false\nworldFolder: null\ngeneration: void\n',
    );
    const port = String(blocker.address().port);
    const started = runBailiffStart(serverDir, port);
    child = started.child;
    const { code, output } = await started.exit;
    expect(code).not.toBe(0);
    expect(output).toContain(
      `bailiff start: UDP port ${port} on 127.0.0.1 is already in use (EADDRINUSE): stop what uses it, or set another port in server.yml`,
    );
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('game server listening on');
  });
});
