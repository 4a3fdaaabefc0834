import type { Kind } from './kind.js';
import { recordNoticeShown, textFor } from './notices.js';

/**
 * The status `/warn` creates its punishments with. Not `active`, so no server that enforces
 * only active punishments acts on it and it earns no points; Bailiff reads it as a warning.
 */
export const WARNING_STATUS = 'warning';

/** A warning: stored and shown to the target once (at once when online, else at the next join). */
export const warnKind: Kind = {
  action: 'warn',
  indexedAs: undefined,
  messages: { broadcast: 'broadcast.warn', notice: 'notice.warning' },
  arrived(step) {
    if (step.target) step.notify(step.text('notice.warning'));
  },
  atJoin(context, punishment, now) {
    recordNoticeShown(context, punishment, now);
    return textFor(context, 'notice.warning', punishment, now);
  },
  lifted: () => {},
};
