import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

const cli = resolve(import.meta.dirname, '../../../dist/src/cli/main.js');

export interface BailiffStartRun {
  child: ChildProcess;
  /** Its exit code and all it wrote (stdout and stderr); killed after 30 s if it has not exited. */
  exit: Promise<{ code: number | null; output: string }>;
}

/** Runs the built `bailiff start --dir <serverDir> --port <port>`, for a start expected to end by itself. */
export function runBailiffStart(serverDir: string, port: number | string): BailiffStartRun {
  const child = spawn(process.execPath, [cli, 'start', '--dir', serverDir, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exit = (async () => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(killer);
    return { code, output };
  })();
  return { child, exit };
}
