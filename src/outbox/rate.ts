/**
 * p-queue's interval options for a requests-per-minute cap. A minute-long window would let the
 * whole minute's budget go out in one burst, so the window is shortened to about a second
 * with the cap scaled to match: 600/min becomes 10 per 1000 ms.
 */
export function rateLimitWindow(requestsPerMinute: number): { intervalCap: number; interval: number } {
  const intervalCap = Math.max(1, Math.ceil(requestsPerMinute / 60));
  return { intervalCap, interval: Math.round((intervalCap * 60_000) / requestsPerMinute) };
}
