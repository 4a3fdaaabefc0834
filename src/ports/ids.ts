import { randomUUID } from 'node:crypto';

/** Generates unique identifiers (claim tokens, punishment ids). Injected for deterministic tests. */
export type IdGenerator = () => string;

export const randomId: IdGenerator = () => randomUUID();
