import { type ChildProcess, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoopStats } from './loop-stats.js';

const START_TIMEOUT_MS = 120_000;

const here = dirname(fileURLToPath(import.meta.url));

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  /** CPU time the service had used when it was up. */
  cpuAtUp: NodeJS.CpuUsage;
}

/** The service child (service-child.ts) on a SQLite file or a `postgres://` URL; resolves once it is up. */
export function startServiceProcess(database: string): Promise<ServiceProcess> {
  const profileDir = process.env.BAILIFF_BENCH_CPU_PROFILE;
  const child = fork(join(here, 'service-child.js'), [database], {
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
      const { url, cpu } = message as { url: string; cpu: NodeJS.CpuUsage };
      resolve({ child, url, cpuAtUp: cpu });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before it started`));
    });
  });
}

/** Asks the service child `question` and resolves with the field `field` of its answer. */
function ask<T>(child: ChildProcess, question: string, field: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`service did not answer ${question} within 10 s`));
    }, 10_000);
    const onMessage = (message: unknown) => {
      const answer = (message as Record<string, unknown>)[field];
      if (answer === undefined) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(answer as T);
    };
    child.on('message', onMessage);
    child.send(question);
  });
}

/** The service's CPU time so far, in microseconds (user + system). */
export async function cpuOf(child: ChildProcess): Promise<number> {
  const cpu = await cpuUsageOf(child);
  return cpu.user + cpu.system;
}

/** The service's CPU time so far, user and system apart (us). */
export function cpuUsageOf(child: ChildProcess): Promise<NodeJS.CpuUsage> {
  return ask<NodeJS.CpuUsage>(child, 'cpu', 'cpu');
}

/** The service's event-loop delay and GC pauses since it was up, or since {@link resetLoopOf}. */
export function loopOf(child: ChildProcess): Promise<LoopStats> {
  return ask<LoopStats>(child, 'loop:read', 'loop');
}

export function resetLoopOf(child: ChildProcess): void {
  child.send('loop:reset');
}

export async function stopServiceProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send('close');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
