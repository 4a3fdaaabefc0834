/** What a probe saw: the latency of each answered call, and how many failed. */
export interface ProbeResult {
  latencies: number[];
  failures: number;
}

/**
 * Sends one request after another, `pauseMs` apart, until stopped (at most `maxCalls`): the
 * latencies say how the service answered others while a bench loaded it.
 */
export function startRequestProbe(send: (call: number) => Promise<Response>, pauseMs: number, maxCalls = 100_000) {
  const result: ProbeResult = { latencies: [], failures: 0 };
  let running = true;
  const loop = (async () => {
    for (let call = 0; running && call < maxCalls; call += 1) {
      const started = performance.now();
      try {
        const response = await send(call);
        await response.arrayBuffer();
        if (response.ok) result.latencies.push(performance.now() - started);
        else result.failures += 1;
      } catch {
        result.failures += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  })();
  return {
    async stop(): Promise<ProbeResult> {
      running = false;
      await loop;
      return result;
    },
  };
}
