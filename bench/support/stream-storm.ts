import { summarize } from '../result.js';
import { startLoginProbeProcess } from './login-probe-process.js';
import { type LoopDelay, type ServiceProcess, serverKey } from './stream-fixture.js';
import { connectSimServer, type SimServer, type StreamPositionSeen } from './stream-sim-server.js';

const STORM_TIMEOUT_MS = 180_000;

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface StormResult {
  allCaughtUpMs: number;
  baselineRssMb: number;
  peakRssMb: number;
  login: { p50: number; p99: number; count: number; failures: number; probeLoopDelayMaxMs: number };
  /** The service's event-loop delay from the first connection until every server was caught up. */
  loopDelay: LoopDelay;
  /** CPU time the service spent from the first connection until every server was caught up. */
  serviceCpuMs: number;
  servers: SimServer[];
}

/** `count` servers connect at once (from `positions` when given); measured until every one is caught up. */
export async function storm(
  service: ServiceProcess,
  count: number,
  activeBans: number,
  positions?: StreamPositionSeen[],
): Promise<StormResult> {
  const baselineRssMb = service.rssMb();
  const probe = await startLoginProbeProcess(service.url, serverKey(count), activeBans);
  await new Promise((resolve) => setTimeout(resolve, 500));
  service.resetLoopDelay();
  const cpuBefore = await service.cpuMs();
  const started = performance.now();
  const servers = Array.from({ length: count }, (_, index) =>
    connectSimServer(service.url, serverKey(index), positions?.[index]),
  );
  const caughtUp = withTimeout(
    Promise.all(servers.map((server) => server.caughtUp)),
    STORM_TIMEOUT_MS,
    `${count} servers caught up`,
  );
  // The probe stops either way, so a failed storm leaves no loop behind.
  const settled = await caughtUp.then(
    (at) => ({ at }),
    (error: unknown) => ({ error }),
  );
  const loopDelay = await service.loopDelay();
  const serviceCpuMs = (await service.cpuMs()) - cpuBefore;
  const probed = await probe.stop();
  if ('error' in settled) throw settled.error;
  const caughtUpAt = settled.at;
  const latencies = probed.latencies;
  return {
    allCaughtUpMs: Math.max(...caughtUpAt) - started,
    baselineRssMb,
    peakRssMb: service.peakRssMb(),
    login: {
      ...summarize(latencies),
      count: latencies.length,
      failures: probed.failures,
      probeLoopDelayMaxMs: probed.probeLoopDelayMaxMs,
    },
    loopDelay,
    serviceCpuMs,
    servers,
  };
}

async function registerPlayers(service: ServiceProcess, count: number): Promise<string[]> {
  const uuids: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const uuid = `20000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    const response = await fetch(`${service.url}/v1/minecraft/players/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': serverKey(0) },
      body: JSON.stringify({ uuid, name: `fanout${n}` }),
    });
    if (!response.ok) throw new Error(`register player: ${response.status}`);
    uuids.push(uuid);
  }
  return uuids;
}

/** Bans created one after another; per server, the time from the request to the pushed frame. */
export async function fanOut(service: ServiceProcess, servers: SimServer[], bans: number): Promise<number[]> {
  const uuids = await registerPlayers(service, bans);
  const latencies: number[] = [];
  for (const uuid of uuids) {
    let remaining = servers.length;
    let allArrived!: () => void;
    const arrived = new Promise<void>((resolve) => {
      allArrived = resolve;
    });
    const sentAt = performance.now();
    for (const server of servers) {
      server.onPushed((_id, atMs) => {
        latencies.push(atMs - sentAt);
        remaining -= 1;
        if (remaining === 0) allArrived();
      });
    }
    const response = await fetch(`${service.url}/v1/minecraft/punishments/dynamic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': serverKey(0) },
      body: JSON.stringify({ targetUuid: uuid, typeOrdinal: 2, issuerName: 'bench' }),
    });
    if (!response.ok) throw new Error(`create punishment: ${response.status}`);
    await withTimeout(arrived, 30_000, `ban pushed to ${servers.length} servers`);
  }
  return latencies;
}
