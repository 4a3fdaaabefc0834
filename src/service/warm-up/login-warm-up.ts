import { Agent, request } from 'node:http';
import { createServer as createRelay, type Server as Relay, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import type { KyselyStorage } from '../store/kysely-storage.js';
import { type RehearsalNetwork, writeRehearsalNetwork } from './rehearsal-network.js';
import { settleHeap } from './settle-heap.js';

/** Connections the rehearsal's checks share, as a few game servers would. */
const CONNECTIONS = 4;
/** The rehearsal stops here if it has not answered its checks by then (a busy machine): a start is never held up long. */
export const DEFAULT_WARM_UP_MAX_MS = 1000;

/**
 * Before the service listens: answers `checks` login checks over HTTP on loopback, through the
 * service's own HTTP server, routes, stores and statements, for a rehearsal network that a
 * rolled-back transaction holds; then collects the start-up's garbage. A restart's storm of logins
 * then meets a request path that is compiled, with V8's feedback of real requests (fastify's
 * `inject` would teach it about objects real requests never carry), and a heap with nothing to
 * collect. Nothing of the rehearsal is left: not a row, nor the servers' activity. The service's
 * port is not open meanwhile; the checks reach its HTTP server through a relay on a port of their own.
 * Runs while nothing else uses the storage (see KyselyStorage.rehearse).
 */
export async function warmUpLoginChecks(
  app: FastifyInstance,
  context: ServiceContext,
  storage: KyselyStorage,
  settings: { checks: number; maxMs: number; platform: string },
): Promise<void> {
  await app.ready();
  const startedAt = performance.now();
  const serverIds: number[] = [];
  let sent: SentChecks = { answered: 0 };
  const relay = await startRelay(app);
  try {
    await storage.rehearse(async () => {
      const network = await writeRehearsalNetwork(context.stores, context.clock.now());
      serverIds.push(...network.servers.map((server) => server.id));
      sent = await sendChecks(
        `http://127.0.0.1:${relay.port}/v1/${settings.platform}/player/login`,
        network,
        settings.checks,
        startedAt + settings.maxMs,
      );
    });
  } finally {
    await relay.close();
    for (const id of serverIds) context.activity.forget(id);
  }
  settleHeap();
  const ms = Math.round(performance.now() - startedAt);
  // A start never fails for its warm-up: a refusal (a rate limit set lower than the rehearsal's pace) only ends it early.
  if (sent.endedBy !== undefined) {
    context.logger.warn('warm-up ended early: a rehearsal login check failed', {
      checks: sent.answered,
      reason: sent.endedBy,
      ms,
    });
    return;
  }
  context.logger.info('warmed up', { checks: sent.answered, ms });
}

interface SentChecks {
  /** Checks answered 200. */
  answered: number;
  /** What ended the rehearsal early: the first check answered otherwise (`HTTP 429`), or not answered. */
  endedBy?: string;
}

/** A loopback port whose connections are handed to the app's HTTP server, as its own port's are. */
async function startRelay(app: FastifyInstance): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const relay: Relay = createRelay((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    app.server.emit('connection', socket);
  });
  await new Promise<void>((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(0, '127.0.0.1', () => resolve());
  });
  const address = relay.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
    },
  };
}

/**
 * Sends up to `checks` login checks, the first of each connection whatever the time, until one is
 * answered otherwise than 200; says how many were answered.
 */
async function sendChecks(
  url: string,
  network: RehearsalNetwork,
  checks: number,
  deadline: number,
): Promise<SentChecks> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    let next = 0;
    const sent: SentChecks = { answered: 0 };
    const connection = async () => {
      for (let first = true; next < checks && (first || performance.now() < deadline); first = false) {
        if (sent.endedBy !== undefined) return;
        const n = next++;
        const apiKey = network.servers[n % network.servers.length]!.apiKey;
        try {
          const { status } = await post(agent, url, apiKey, network.loginBody(n));
          if (status === 200) sent.answered += 1;
          else sent.endedBy ??= `HTTP ${status}`;
        } catch (error) {
          sent.endedBy ??= error instanceof Error ? error.message : String(error);
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, connection));
    return sent;
  } finally {
    agent.destroy();
  }
}

function post(agent: Agent, url: string, apiKey: string, body: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        // Read to its end, as a game server's client does, so the connection is kept for the next check.
        response.resume();
        response.once('error', reject);
        response.once('end', () => resolve({ status: response.statusCode ?? 0 }));
      },
    );
    call.once('error', reject);
    call.end(body);
  });
}
