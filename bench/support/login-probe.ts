import { startRequestProbe } from './request-probe.js';

/** Calls made, and not timed, before a probe starts: the first ones load and compile the HTTP client. */
const WARM_UP_CALLS = 50;

function sendLoginCheck(serviceUrl: string, apiKey: string, bannedCount: number, call: number): Promise<Response> {
  const index = (call * 7919) % bannedCount;
  return fetch(`${serviceUrl}/v1/minecraft/player/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({
      minecraftUuid: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
      username: `player${index}`.slice(0, 16),
    }),
    signal: AbortSignal.timeout(10_000),
  });
}

/**
 * Warms the client up, then sends login checks one after another until stopped; the latencies say
 * how the service answered meanwhile, not how long this process took to load its HTTP client.
 */
export async function startLoginProbe(serviceUrl: string, apiKey: string, bannedCount: number) {
  for (let call = 0; call < WARM_UP_CALLS; call += 1) {
    const response = await sendLoginCheck(serviceUrl, apiKey, bannedCount, call);
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`login probe warm-up: the service answered ${response.status}`);
  }
  return startRequestProbe((call) => sendLoginCheck(serviceUrl, apiKey, bannedCount, WARM_UP_CALLS + call), 10);
}
