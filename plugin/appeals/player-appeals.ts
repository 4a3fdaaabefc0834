import type { AppealCodes } from './appeal-codes.js';
import type { AppealCooldowns } from './appeal-cooldowns.js';

/** What `/appeal` needs beyond the other commands: the codes, each player's cooldown, where to appeal. */
export interface PlayerAppeals {
  readonly codes: Pick<AppealCodes, 'held' | 'ask' | 'isOffered'>;
  readonly cooldowns: Pick<AppealCooldowns, 'remainingMs' | 'started' | 'cleared'>;
  /** Current `appealUrl` of config.yml. */
  appealUrl(): string;
}
