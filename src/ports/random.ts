/** A source of uniform numbers in [0, 1). Injected so jitter is reproducible in tests. */
export type Random = () => number;

export const systemRandom: Random = Math.random;
