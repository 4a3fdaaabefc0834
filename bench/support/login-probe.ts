/** Sends login checks one after another until stopped; the latencies say how the service answered meanwhile. */
export function startLoginProbe(serviceUrl: string, apiKey: string, bannedCount: number) {
  const latencies: number[] = [];
  let failures = 0;
  let running = true;
  const loop = (async () => {
    for (let n = 0; running; n += 1) {
      const index = (n * 7919) % bannedCount;
      const started = performance.now();
      try {
        const response = await fetch(`${serviceUrl}/v1/minecraft/player/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
          body: JSON.stringify({
            minecraftUuid: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
            username: `player${index}`.slice(0, 16),
          }),
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        if (response.ok) latencies.push(performance.now() - started);
        else failures += 1;
      } catch {
        failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { latencies, failures };
    },
  };
}
