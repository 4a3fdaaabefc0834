import { startRequestProbe } from './request-probe.js';

/** Sends login checks one after another until stopped; the latencies say how the service answered meanwhile. */
export function startLoginProbe(serviceUrl: string, apiKey: string, bannedCount: number) {
  return startRequestProbe((call) => {
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
  }, 10);
}
