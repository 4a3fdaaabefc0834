import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { REPOSITORY_ROOT } from '../game-server.js';

const CHILD = join(REPOSITORY_ROOT, 'dist', 'test', 'e2e', 'helpers', 'soak', 'soak-service-child.js');
const START_TIMEOUT_MS = 120_000;

/** The soak's service (soak-service-child.ts), seen from the process that drives the soak. */
export interface SoakService {
  /** Where game servers reach it: the logging proxy in front of the service. */
  url: string;
  /** Login checks the service was asked, by lower-case player UUID. */
  loginChecks(): Promise<Record<string, number>>;
  /** Stops it (bounded); its database file stays for {@link reportTickets}. */
  close(): Promise<void>;
  /** Bytes of its SQLite database and WAL file now. */
  fileSizes(): { db: number; wal: number };
  /** After close: how many tickets the service stored whose description holds each marker. */
  reportTickets(markers: readonly string[]): Record<string, number>;
}

function sizeOf(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/** Forks the service (built: run `npm run build` first) and waits for its URL. */
export async function startSoakService(dir: string): Promise<SoakService> {
  if (!existsSync(CHILD)) throw new Error(`${CHILD} is missing: run \`npm run build\``);
  const dbPath = join(dir, 'soak-service.db');
  const child: ChildProcess = fork(CHILD, [dbPath], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the soak service did not start')), START_TIMEOUT_MS);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message as { url: string });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the soak service exited with ${code} before it started`));
    });
  });
  const ask = <T>(question: string, key: string) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the soak service did not answer ${question}`)), 30_000);
      const onMessage = (message: unknown) => {
        const answer = (message as Record<string, unknown>)[key];
        if (answer === undefined) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(answer as T);
      };
      child.on('message', onMessage);
      child.send(question);
    });
  return {
    url,
    loginChecks: () => ask<Record<string, number>>('login-checks', 'loginChecks'),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('close');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(killer);
    },
    fileSizes: () => ({ db: sizeOf(dbPath), wal: sizeOf(`${dbPath}-wal`) }),
    reportTickets(markers) {
      const db = new Database(dbPath, { readonly: true });
      try {
        const descriptions = db.prepare('SELECT description FROM service_tickets').pluck().all() as string[];
        return Object.fromEntries(
          // A whole word: marker 2 is a prefix of marker 20.
          markers.map((marker) => [marker, descriptions.filter((text) => text.split(/\s+/).includes(marker)).length]),
        );
      } finally {
        db.close();
      }
    },
  };
}
