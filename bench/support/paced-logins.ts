import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type FixtureFacts, NETWORK_AT_SCALE } from '../../test/service/helpers/network-fixture.js';
import { loginBody } from './login-bodies.js';
import { postLogin } from './login-post.js';

/** A storm of login checks paced at a rate, as game servers send them. */
export interface PacedStorm {
  url: string;
  facts: FixtureFacts;
  /** Checks to send. */
  total: number;
  perSecond: number;
  /** Number of the first check's body (see loginBody), so storms of one run ask about different players. */
  firstBody: number;
  /** Game servers sending them, each over its own kept-alive connection, in turns. */
  servers: number;
  /**
   * Go on over the connections the previous storm of as many servers left open (a warm-up's),
   * rather than each server opening its own with its first check. @default false
   */
  keepConnections?: boolean;
  /** Requests open at once at most; past it the storm falls behind its rate rather than queueing without bound. */
  maxInFlight: number;
}

export interface PacedStormResult {
  /** Each answered check, from the moment it was sent to its last byte (ms). */
  latencies: number[];
  /** Answered with another status than 200, or not answered at all, by reason. */
  failures: Record<string, number>;
  /** Not sent: the storm fell too far behind its rate. */
  unsent: number;
  elapsedMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let kept: Agent[] = [];

/** The game servers' connections: those of the previous storm, or new ones (the old ones closed). */
function connectionsOf(storm: PacedStorm): Agent[] {
  if (storm.keepConnections && kept.length === storm.servers) return kept;
  for (const agent of kept) agent.destroy();
  kept = Array.from({ length: storm.servers }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  return kept;
}

/**
 * Sends `total` login checks paced at `perSecond`, the n-th over the connection of game server
 * n mod `servers`. Unless it keeps the previous storm's, a server's first check opens its
 * connection, as after a restart every server reconnects with its first player.
 */
export async function pacedLogins(storm: PacedStorm): Promise<PacedStormResult> {
  const agents = connectionsOf(storm);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const fail = (reason: string) => {
    failures[reason] = (failures[reason] ?? 0) + 1;
  };
  let launched = 0;
  let inFlight = 0;
  const began = performance.now();
  const send = async (n: number) => {
    const sent = performance.now();
    try {
      const body = loginBody(storm.firstBody + n, NETWORK_AT_SCALE, storm.facts);
      const { status } = await postLogin(agents[n % agents.length]!, storm.url, body);
      if (status === 200) latencies.push(performance.now() - sent);
      else fail(`HTTP ${status}`);
    } catch (error) {
      fail(error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error));
    } finally {
      inFlight -= 1;
    }
  };
  const durationMs = (storm.total * 1000) / storm.perSecond;
  // Bounded: each pass launches what is due or waits a millisecond, and gives up at three times the storm.
  while (launched < storm.total && performance.now() - began < durationMs * 3) {
    const due = Math.min(storm.total, Math.floor(((performance.now() - began) * storm.perSecond) / 1000));
    while (launched < due && inFlight < storm.maxInFlight) {
      inFlight += 1;
      void send(launched);
      launched += 1;
    }
    await sleep(1);
  }
  for (let waited = 0; inFlight > 0 && waited < 30_000; waited += 10) await sleep(10);
  return { latencies, failures, unsent: storm.total - launched, elapsedMs: performance.now() - began };
}

/** Closes the connections a storm left open. */
export function closeConnections(): void {
  for (const agent of kept) agent.destroy();
  kept = [];
}
