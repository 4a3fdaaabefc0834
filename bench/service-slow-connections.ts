import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ADMIN_TOKEN, KEY_A1, KEY_A2, testSeed } from '../test/service/helpers/fixture.js';
import { type HeldOutcome, type HeldSocket, holdSocket } from '../test/service/helpers/held-socket.js';
import { closeAgents, requestFrom } from '../test/service/helpers/http-from.js';
import { startServiceProcess } from '../test/service/helpers/service-process.js';
import { type BenchResult, summarize } from './result.js';

/** The defaults of `bailiff service`, which this bench measures. */
const HEADERS_TIMEOUT_MS = 10_000;
const BODY_TIMEOUT_MS = 30_000;
const CONNECTIONS_PER_ADDRESS = 100;
const SLOW_CONNECTIONS = 500;
const ATTACKER = '127.0.0.1';
const NEIGHBOUR = '127.0.0.2';
/** How long past its timeout a connection may stay before it counts as not closed. */
const WAIT_PAST_TIMEOUT_MS = 15_000;
const PROBE_EVERY_MS = 200;

const slowHeaders = 'GET /v1/minecraft/punishments/types HTTP/1.1\r\nHost: bailiff\r\n';
const slowBody =
  `POST /v1/minecraft/punishments/create HTTP/1.1\r\nHost: bailiff\r\nX-API-Key: ${KEY_A1}\r\n` +
  'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{';

interface Attempt {
  kind: 'headers' | 'body';
  socket: HeldSocket;
  outcome?: HeldOutcome;
}

/**
 * Issue 32, item 1: 500 connections from one address against `bailiff service` with its default
 * limits, half holding unfinished headers and half a body announced as 1000 bytes and never sent,
 * while another address sends a normal request every 200 ms. Past the cap every connection is
 * answered 429 and closed; every admitted one is answered 408 and closed within its timeout.
 */
export async function run(): Promise<BenchResult[]> {
  const directory = mkdtempSync(join(tmpdir(), 'bailiff-bench-slow-'));
  const service = await startServiceProcess({ seed: testSeed(), adminToken: ADMIN_TOKEN, tmpDirectory: directory });
  const port = Number(new URL(service.url).port);
  const probeMs: number[] = [];
  const probeStatuses = new Map<number, number>();
  let isProbing = true;
  const probing = (async () => {
    while (isProbing) {
      const started = performance.now();
      const answer = await requestFrom(NEIGHBOUR, `${service.url}/v1/minecraft/punishments/types`, {
        headers: { 'x-api-key': KEY_A2 },
      });
      probeMs.push(performance.now() - started);
      probeStatuses.set(answer.status, (probeStatuses.get(answer.status) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
  })();
  const attempts: Attempt[] = [];
  try {
    const rssBefore = service.rssBytes();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, service.rssBytes());
    }, 100);
    for (let index = 0; index < SLOW_CONNECTIONS; index += 1) {
      const kind = index % 2 === 0 ? 'headers' : 'body';
      const socket = holdSocket(port, kind === 'headers' ? slowHeaders : slowBody, ATTACKER);
      attempts.push({ kind, socket });
      await socket.connected;
    }
    // While the attacker holds its place, its next connection is refused and the neighbour is served.
    const sameAddress = await holdSocket(port, slowHeaders, ATTACKER).closed(5000);
    await Promise.all(
      attempts.map(async (attempt) => {
        const timeoutMs = attempt.kind === 'headers' ? HEADERS_TIMEOUT_MS : BODY_TIMEOUT_MS;
        try {
          attempt.outcome = await attempt.socket.closed(timeoutMs + WAIT_PAST_TIMEOUT_MS);
        } catch {
          attempt.outcome = undefined;
        }
      }),
    );
    clearInterval(sampler);
    isProbing = false;
    await probing;

    const refused = attempts.filter((attempt) => attempt.outcome?.status === 429);
    const admitted = attempts.filter((attempt) => attempt.outcome?.status !== 429);
    const stillOpen = attempts.filter((attempt) => attempt.outcome === undefined).length;
    const closedBy = (kind: Attempt['kind']) =>
      admitted.filter((attempt) => attempt.kind === kind && attempt.outcome?.status === 408);
    const headers = closedBy('headers');
    const bodies = closedBy('body');
    const otherAnswers = admitted.length - headers.length - bodies.length - stillOpen;
    const ms = (list: Attempt[]) => summarize(list.map(({ outcome }) => outcome!.closedAtMs! - outcome!.connectedAtMs));
    const probeOk = probeStatuses.get(200) ?? 0;
    return [
      {
        name: `${SLOW_CONNECTIONS} slow connections from one address: refused with 429 past the cap of ${CONNECTIONS_PER_ADDRESS}`,
        unit: 'connections',
        value: refused.length,
        target: `${SLOW_CONNECTIONS - CONNECTIONS_PER_ADDRESS}`,
        notes: `admitted ${admitted.length}; the attacker's next connection while they were held: ${sameAddress.status}`,
      },
      {
        name: 'refused connection: connect -> closed',
        unit: 'ms',
        ...ms(refused),
      },
      {
        name: `admitted, unfinished headers: connect -> 408 and closed (${headers.length})`,
        unit: 'ms',
        ...ms(headers),
        target: `${HEADERS_TIMEOUT_MS / 1000} s + up to 1 s (node checks every second)`,
      },
      {
        name: `admitted, body never sent: connect -> 408 and closed (${bodies.length})`,
        unit: 'ms',
        ...ms(bodies),
        target: `${BODY_TIMEOUT_MS / 1000} s after the headers`,
      },
      {
        name: 'slow connections not closed, or closed otherwise than 429/408',
        unit: 'connections',
        value: stillOpen + otherAnswers,
        target: '0',
      },
      {
        name: `normal requests from another address meanwhile (${probeMs.length}, every ${PROBE_EVERY_MS} ms)`,
        unit: 'ms',
        ...summarize(probeMs),
        notes: `${probeOk} answered 200, ${probeMs.length - probeOk} otherwise`,
      },
      {
        name: 'service RSS growth during the attack (peak)',
        unit: 'MB',
        value: (rssPeak - rssBefore) / (1024 * 1024),
      },
    ];
  } finally {
    isProbing = false;
    for (const attempt of attempts) attempt.socket.destroy();
    closeAgents();
    await service.kill();
    rmSync(directory, { recursive: true, force: true });
  }
}
