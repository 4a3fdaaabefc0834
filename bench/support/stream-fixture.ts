import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '../../src/db/open-db.js';
import { openSqliteStorage } from '../../src/service/store/open-storage.js';

export const BENCH_NETWORK = 'bench';
/** A second network with one server, whose key is {@link OTHER_NETWORK_KEY}. */
export const OTHER_NETWORK = 'other';
export const OTHER_NETWORK_KEY = 'other-network-server-key-0001';
export const serverKey = (index: number) => `bench-server-key-${String(index).padStart(5, '0')}`;

/**
 * A service database with `servers` server keys and `activeBans` active bans in one network,
 * written in one transaction (the change log triggers record each).
 */
export async function writeStreamFixture(dbPath: string, servers: number, activeBans: number): Promise<void> {
  const storage = await openSqliteStorage(dbPath);
  let networkId: number;
  try {
    networkId = await storage.transaction(async ({ networks }) => {
      const id = await networks.ensureNetwork(BENCH_NETWORK);
      for (let n = 0; n < servers; n += 1) await networks.ensureServer(id, `server-${n}`, serverKey(n));
      await networks.ensureServer(await networks.ensureNetwork(OTHER_NETWORK), 'other-server', OTHER_NETWORK_KEY);
      return id;
    });
  } finally {
    await storage.close();
  }
  const db = openDb(dbPath);
  try {
    const insert = db.prepare(
      `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
         duration, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'Moderator', 2, 'Using a hacked client (bench fixture)', 0, 'active', ?, ?)`,
    );
    const at = Date.now() - activeBans * 1000;
    db.transaction(() => {
      for (let n = 0; n < activeBans; n += 1) {
        const uuid = `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
        insert.run(networkId, `ban-${n}`, uuid, `player${n}`, at + n, at + n);
      }
    })();
  } finally {
    db.close();
  }
}

/** Adds `count` bans (as changes the stream must deliver) to the fixture while the service is down. */
export function addBans(dbPath: string, count: number, prefix: string): void {
  const db = openDb(dbPath);
  try {
    const { id } = db.prepare('SELECT id FROM service_networks WHERE name = ?').get(BENCH_NETWORK) as { id: number };
    const insert = db.prepare(
      `INSERT INTO service_punishments (network_id, id, target_uuid, target_name, issuer_name, type_ordinal, reason,
         duration, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'Moderator', 2, 'added while down', 0, 'active', ?, ?)`,
    );
    const now = Date.now();
    db.transaction(() => {
      for (let n = 0; n < count; n += 1) {
        insert.run(
          id,
          `${prefix}-${n}`,
          `10000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
          `late${n}`,
          now,
          now,
        );
      }
    })();
  } finally {
    db.close();
  }
}

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Current resident set size in MB. */
  rssMb(): number;
  /** Peak resident set size of the process so far in MB (VmHWM). */
  peakRssMb(): number;
  /** Snapshots the service rendered so far. */
  snapshotsRendered(): number;
  /** Restarts the service's event-loop delay histogram. */
  resetLoopDelay(): void;
  /** The service's event-loop delay since the last reset, in ms. */
  loopDelay(): Promise<LoopDelay>;
  /** The service's CPU time so far (user + system), in ms. */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

/** How long the service's event loop kept waiting work waiting (monitorEventLoopDelay, 1 ms resolution). */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

const statusKb = (pid: number, field: string) => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
};

/** Starts the service on `dbPath` in a child process; resolves once it listens (60 s at most). */
export function startServiceProcess(dbPath: string, options: Record<string, unknown>): Promise<ServiceProcess> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'stream-service-child.js');
  const child = fork(script, [dbPath, JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('service child did not start within 60 s'));
    }, 60_000);
    child.once('exit', (code) => reject(new Error(`service child exited with ${code}`)));
    let rendered = 0;
    child.on('message', (message) => {
      if ((message as { rendered?: unknown }).rendered) rendered += 1;
    });
    child.once('message', (message) => {
      clearTimeout(timer);
      const { url } = message as { url: string };
      const pid = child.pid!;
      resolve({
        url,
        pid,
        snapshotsRendered: () => rendered,
        resetLoopDelay: () => child.send('loop-delay:reset'),
        cpuMs: () =>
          new Promise<number>((answer, fail) => {
            const wait = setTimeout(() => fail(new Error('service did not tell its CPU time within 10 s')), 10_000);
            const onMessage = (reply: unknown) => {
              const cpu = (reply as { cpu?: NodeJS.CpuUsage }).cpu;
              if (!cpu) return;
              clearTimeout(wait);
              child.off('message', onMessage);
              answer((cpu.user + cpu.system) / 1000);
            };
            child.on('message', onMessage);
            child.send('cpu');
          }),
        loopDelay: () =>
          new Promise<LoopDelay>((answer, fail) => {
            const wait = setTimeout(() => fail(new Error('service did not tell its loop delay within 10 s')), 10_000);
            const onMessage = (reply: unknown) => {
              const delay = (reply as { loopDelay?: LoopDelay }).loopDelay;
              if (!delay) return;
              clearTimeout(wait);
              child.off('message', onMessage);
              answer(delay);
            };
            child.on('message', onMessage);
            child.send('loop-delay:read');
          }),
        rssMb: () => statusKb(pid, 'VmRSS'),
        peakRssMb: () => statusKb(pid, 'VmHWM'),
        close: () =>
          new Promise<void>((done) => {
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.removeAllListeners('exit');
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.send('close');
          }),
      });
    });
  });
}
