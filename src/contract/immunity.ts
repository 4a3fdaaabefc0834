import { z } from 'zod';

/** The highest immunity weight; 0 (the default) is no immunity. */
export const MAX_WEIGHT = 100;

/**
 * Extension (issue 34, point 4): an immunity weight, the highest `bailiff.weight.<n>` a player
 * holds in game. Sent as `issuerWeight` with a creation (the issuer's) and as `weight` with the
 * login check (the joining player's, which the service remembers as that player's).
 */
export const immunityWeight = z
  .number()
  .int('must be an integer')
  .min(0, 'must be at least 0')
  .max(MAX_WEIGHT, `must be at most ${MAX_WEIGHT}`);
