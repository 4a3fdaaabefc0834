import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const START_TIMEOUT_MS = 120_000;

const here = dirname(fileURLToPath(import.meta.url));

export function startServiceProcess(dbPath: string): Promise<{ child: ChildProcess; url: string }> {
  const profileDir = process.env.BAILIFF_BENCH_CPU_PROFILE;
  const child = fork(join(here, 'service-child.js'), [dbPath], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // BAILIFF_BENCH_CPU_PROFILE=<dir>: the service writes a V8 CPU profile there when it stops.
    execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve({ child, url: (message as { url: string }).url });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before it started`));
    });
  });
}

/** The service's CPU time so far, in microseconds (user + system). */
export function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('service did not tell its CPU time within 10 s')), 10_000);
    const onMessage = (message: unknown) => {
      const cpu = (message as { cpu?: NodeJS.CpuUsage }).cpu;
      if (!cpu) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(cpu.user + cpu.system);
    };
    child.on('message', onMessage);
    child.send('cpu');
  });
}

export async function stopServiceProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('close');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
