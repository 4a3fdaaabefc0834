import { z } from 'zod';

/** The longest re-appeal cooldown a network may set: a year. */
export const MAX_APPEAL_COOLDOWN_HOURS = 8760;

/** A network's wait after a denied appeal, in whole hours; 0: none. */
export const appealCooldownHours = z
  .number()
  .int('must be a whole number of hours')
  .min(0, 'must be at least 0')
  .max(MAX_APPEAL_COOLDOWN_HOURS, `must be at most ${MAX_APPEAL_COOLDOWN_HOURS} (a year)`);
