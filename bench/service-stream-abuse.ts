import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { type BenchResult, summarize } from './result.js';
import { startRequestProbe } from './support/request-probe.js';
import {
  OTHER_NETWORK_KEY,
  type ServiceProcess,
  serverKey,
  startServiceProcess,
  writeStreamFixture,
} from './support/stream-fixture.js';

const ACTIVE_BANS = 20_000;
const ATTEMPTS = 1000;
const CONCURRENT = 50;

/** Opens a stream that never reads; resolves with the upgrade's status (101 when accepted). */
function hostileStream(url: string, apiKey: string, held: WebSocket[]): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/minecraft/stream`, { headers: { 'x-api-key': apiKey } });
    ws.once('open', () => {
      ws.pause();
      held.push(ws);
      resolve(101);
    });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => resolve(0));
  });
}

/** `recent` of another network, one call after another, until stopped. */
function probeRecent(service: ServiceProcess) {
  return startRequestProbe(
    () =>
      fetch(`${service.url}/v1/minecraft/punishments/recent?hours=1`, {
        headers: { 'x-api-key': OTHER_NETWORK_KEY },
        signal: AbortSignal.timeout(15_000),
      }),
    20,
  );
}

/**
 * Issue 23: one valid key opens streams as fast as it can (1,000 attempts, 50 at a time, none of
 * them reading) against a service with 20,000 active bans, while another network polls `recent`.
 */
export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bailiff-bench-stream-abuse-'));
  const dbPath = join(dir, 'service.db');
  const held: WebSocket[] = [];
  let service: ServiceProcess | undefined;
  try {
    await writeStreamFixture(dbPath, 1, ACTIVE_BANS);
    service = await startServiceProcess(dbPath, { pingIntervalMs: 60_000 });
    const baselineRssMb = service.rssMb();
    const probe = probeRecent(service);
    const statuses = new Map<number, number>();
    const started = performance.now();
    for (let sent = 0; sent < ATTEMPTS; sent += CONCURRENT) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(CONCURRENT, ATTEMPTS - sent) }, () =>
          hostileStream(service!.url, serverKey(0), held),
        ),
      );
      for (const status of batch) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const attemptsMs = performance.now() - started;
    const recent = await probe.stop();
    const histogram = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    return [
      {
        name: `one key, ${ATTEMPTS} stream attempts (${CONCURRENT} at a time, never reading)`,
        unit: 'accepted',
        value: statuses.get(101) ?? 0,
        target: '<= 3 (the cap)',
        notes: `${histogram}; ${(attemptsMs / 1000).toFixed(1)} s`,
      },
      {
        name: "another network's recent meanwhile",
        unit: 'ms',
        ...summarize(recent.latencies),
        target: 'answers in < 1000',
        notes: `${recent.latencies.length} answered, ${recent.failures} failed`,
      },
      {
        name: 'peak service RSS',
        unit: 'MB',
        value: service.peakRssMb(),
        target: '< 600',
        notes: `RSS ${baselineRssMb.toFixed(0)} MB before; ${ACTIVE_BANS} active bans`,
      },
    ];
  } finally {
    for (const ws of held) ws.terminate();
    await service?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
