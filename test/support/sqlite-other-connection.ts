import { once } from 'node:events';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// The connection runs on a thread of its own, as another process's would: while its statement waits
// for the service's transaction, the service's event loop goes on and can finish that transaction.
const CONNECTION = `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(workerData.driver);
  const db = new Database(workerData.path);
  parentPort.on('message', (text) => {
    try {
      db.exec(text);
      parentPort.postMessage({ ok: true });
    } catch (error) {
      parentPort.postMessage({ ok: false, message: String(error) });
    }
  });
`;

/** Another connection to a SQLite file the service holds open (a saboteur, a lock holder). */
export interface OtherSqliteConnection {
  /** Runs `text`; rejects with SQLite's error. */
  exec(text: string): Promise<void>;
  close(): Promise<void>;
}

export function openOtherSqliteConnection(path: string): OtherSqliteConnection {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CONNECTION, { eval: true, workerData: { path, driver } });
  return {
    async exec(text) {
      worker.postMessage(text);
      const [answer] = (await once(worker, 'message')) as [{ ok: boolean; message?: string }];
      if (!answer.ok) throw new Error(answer.message);
    },
    async close() {
      await worker.terminate();
    },
  };
}
