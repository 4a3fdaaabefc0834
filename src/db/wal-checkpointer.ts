import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../ports/logger.js';
import type { Db } from './open-db.js';

/** SQLite's own automatic checkpoint threshold, restored if the worker fails. */
const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

// Runs as an eval'd CommonJS worker so it needs no compiled file beside this one (tests run sources).
// Only PASSIVE checkpoints: they never take the write lock. A TRUNCATE checkpoint would hold it
// while waiting for readers, and a connection's transaction that read before writing then fails
// with SQLITE_BUSY at once (no busy wait can help it). The WAL file is cut back instead by the
// connection's own next commit after a complete checkpoint (`journal_size_limit`, see open-db.ts).
const WORKER_SOURCE = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const walBytes = () => { try { return statSync(workerData.path + '-wal').size; } catch { return 0; } };
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); }
  catch (error) { parentPort.postMessage({ type: 'error', message: String(error && error.message || error) }); }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'checkpoint') {
    checkpoint();
    parentPort.postMessage({ type: 'checkpointed', walBytes: walBytes() });
    return;
  }
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.postMessage({ type: 'stopped' });
  parentPort.close();
});
`;

export interface WalCheckpointerOptions {
  /** How often the worker copies the WAL back into the database file. @default 1000 */
  intervalMs?: number;
  logger?: Logger;
}

export interface WalCheckpointer {
  /** Runs a checkpoint now (as the interval does); resolves with the WAL file's size after it. */
  checkpointNow(): Promise<number>;
  /** Runs a last checkpoint and ends the worker. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Where the worker finds better-sqlite3: next to this module, else where an import from here
 * resolves it (a bundled plugin gets it through the runtime's module hooks).
 */
function driverLocation(): string {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return fileURLToPath(import.meta.resolve('better-sqlite3'));
  }
}

/**
 * Moves WAL checkpoints off the connection's commits into a worker thread. With
 * `synchronous=NORMAL` a checkpoint is the only fsync, and SQLite would otherwise run it inside
 * whichever commit crosses the threshold: a few milliseconds on the join or enqueue path.
 * Without a file (`:memory:`) there is nothing to do.
 */
export function startWalCheckpointer(db: Db, options: WalCheckpointerOptions = {}): WalCheckpointer {
  if (db.memory) return { checkpointNow: async () => 0, stop: async () => {} };
  const driverPath = driverLocation();
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      path: db.name,
      driverPath,
      intervalMs: options.intervalMs ?? 1000,
    },
  });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');

  const fallBackToAutomatic = (reason: string) => {
    if (!db.open) return;
    db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
    options.logger?.warn('background WAL checkpoints stopped; SQLite checkpoints on commit again', { reason });
  };
  let stopped = false;
  worker.on('error', (error) => fallBackToAutomatic(error.message));
  const waiting: Array<{ resolve(walBytes: number): void; reject(error: Error): void }> = [];
  worker.on('message', (message: { type: string; message?: string; walBytes?: number }) => {
    if (message.type === 'error') options.logger?.warn('WAL checkpoint failed', { reason: message.message });
    if (message.type === 'checkpointed') waiting.shift()?.resolve(message.walBytes ?? 0);
  });
  worker.on('exit', () => {
    for (const caller of waiting.splice(0)) caller.reject(new Error('the WAL checkpointer exited'));
    if (!stopped) fallBackToAutomatic('worker exited');
  });

  return {
    checkpointNow: () => {
      if (stopped) return Promise.reject(new Error('the WAL checkpointer is stopped'));
      return new Promise<number>((resolve, reject) => {
        waiting.push({ resolve, reject });
        worker.postMessage('checkpoint');
      });
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // Unref'd so it never holds a process open; while stopping, the last checkpoint must finish.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
