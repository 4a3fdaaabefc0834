import { expiresAt } from '../cache/cached-punishment.js';
import type { Kind } from './kind.js';

/** A ban: refused at login (pre-login reads the index), kicked at once when online. */
export const banKind: Kind = {
  action: 'ban',
  indexedAs: 'ban',
  messages: { broadcast: 'broadcast.ban' },
  arrived(step) {
    if (step.target && step.now < expiresAt(step.next)) {
      step.enforce((player) => player.kick(step.text('ban.screen')));
    }
  },
  // A banned player never gets as far as joining.
  atJoin: () => undefined,
  lifted: () => {},
};
