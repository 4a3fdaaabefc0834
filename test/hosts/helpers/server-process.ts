import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const fixtures = resolve(import.meta.dirname, '../../../dist/test/hosts/fixtures');

/** How the server is started: `bailiff start`'s runtime (run-server), or an owner's server with the drop-in. */
export type ServerRunner = 'run-server' | 'run-flying-squid-dropin' | 'run-serenity-dropin';

/** A game server running in a child process (built runner), with its output lines. */
export interface ServerProcess {
  port: number;
  child: ChildProcess;
  lines: string[];
  /** Resolves with the first line (already seen or future) matching, else rejects after timeoutMs. */
  waitForLine(pattern: RegExp, timeoutMs?: number, fromIndex?: number): Promise<string>;
  /** Writes one console command to the server's stdin. */
  send(command: string): void;
  /** Sends SIGTERM, waits for exit (bounded), then SIGKILL. Returns the exit code. */
  stop(timeoutMs?: number): Promise<number | null>;
}

/**
 * Starts `dist/test/hosts/fixtures/<runner>.js` (or a start script of the test's own, `{ script }`,
 * as an owner's server would have) and waits for `game server listening on`.
 */
export async function startServerProcess(
  serverDir: string,
  pluginFolders: string[],
  version?: string,
  env: Record<string, string> = {},
  runnerName: ServerRunner | { script: string } = 'run-server',
): Promise<ServerProcess> {
  const runner = typeof runnerName === 'string' ? resolve(fixtures, `${runnerName}.js`) : runnerName.script;
  if (!existsSync(runner)) throw new Error(`${runner} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [runner, serverDir, ...pluginFolders], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'test', ...(version ? { BAILIFF_TEST_VERSION: version } : {}), ...env },
  });
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
    for (const wake of waiters) wake();
  };
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const text = pending + chunk.toString('utf8');
    const cut = text.lastIndexOf('\n');
    pending = text.slice(cut + 1);
    if (cut >= 0) collect(Buffer.from(text.slice(0, cut)));
  });
  child.stderr!.on('data', collect);
  let exited = false;
  const exit = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code) => {
      exited = true;
      for (const wake of waiters) wake();
      resolveExit(code);
    }),
  );

  const waitForLine = (pattern: RegExp, timeoutMs = 15_000, fromIndex = 0): Promise<string> =>
    new Promise((resolveLine, reject) => {
      const check = () => {
        const found = lines.slice(fromIndex).find((line) => pattern.test(line));
        if (found !== undefined) return done(() => resolveLine(found));
        if (exited) return done(() => reject(new Error(`server exited before ${pattern}:\n${lines.join('\n')}`)));
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`timed out waiting for ${pattern}; output:\n${lines.join('\n')}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        waiters.delete(check);
        settle();
      };
      waiters.add(check);
      check();
    });

  const listening = await waitForLine(/game server listening on 127\.0\.0\.1:(\d+)/, 30_000);
  const port = Number(/:(\d+)$/.exec(listening.trim())![1]);
  return {
    port,
    child,
    lines,
    waitForLine,
    send: (command) => child.stdin!.write(`${command}\n`),
    stop: async (timeoutMs = 8000) => {
      if (exited) return exit;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
}
